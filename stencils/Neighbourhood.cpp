#include "stencils/Neighbourhood.h"

#include <algorithm>
#include <cstdlib>

#include "core/Error.h"

namespace tessera::stencils {

void require_dims(const std::vector<ArithExpr>& extents, std::size_t dims,
                  const std::string& name) {
  if (extents.size() != dims)
    user_error(
        cat(name, " is a ", dims, "-D stencil: give ", dims, " extent(s), got ", extents.size()));
}

Expr neighbourhood_stencil(const std::vector<ArithExpr>& extents, ScalarKind kind, int radius,
                           Boundary boundary, const std::function<Val(Val)>& point) {
  const int dims = static_cast<int>(extents.size());
  Val x = input("x", array_of(Type::scalar(kind), extents));
  if (boundary.kind == Boundary::Fixed) // a step, not a Pad (core/Expr.h)
    return program({x}, x | fixed_halo(dims, radius, Fun(point)));
  return program({x}, x | pad_nd(dims, radius, radius, boundary) |
                          slide_nd(dims, 2 * radius + 1, 1) | map_nd(dims, Fun(point)));
}

Sym Points::read(const std::vector<int>& offset) {
  auto found = std::find(offsets_.begin(), offsets_.end(), offset);
  auto index = found - offsets_.begin();
  if (found == offsets_.end()) {
    if (fixed_)
      internal_error("a point formula read an offset the first evaluation did not");
    offsets_.push_back(offset);
  }
  return Sym(ScalarExpr::param(static_cast<int>(index)));
}

Expr point_stencil(const std::string& name, const std::vector<ArithExpr>& extents,
                   Boundary boundary, ScalarKind kind, const Formula& formula) {
  Points reads;
  formula(reads);
  std::vector<std::vector<int>> offsets = reads.offsets();
  std::sort(offsets.begin(), offsets.end());
  Points points(offsets);
  ScalarExpr body = formula(points).expr();
  int radius = 0;
  for (const auto& offset : offsets) {
    if (offset.size() != extents.size())
      internal_error(cat("stencil ", name, ": a read with ", offset.size(),
                         " offsets in a grid of ", extents.size(), " dimensions"));
    for (int o : offset)
      radius = std::max(radius, std::abs(o));
  }
  // The formula's arity is only known at run time, hence the user function is built directly
  // rather than from a C++ lambda of fixed arity.
  const int arity = static_cast<int>(offsets.size());
  std::vector<std::string> names;
  for (const auto& offset : offsets)
    names.push_back(neighbour_name(offset));
  Fun f = detail::make_user_fun_value(name, arity, std::vector<ScalarKind>(arity, kind), body,
                                      std::source_location::current(), names);
  return neighbourhood_stencil(extents, kind, radius, boundary, [=](Val nbh) {
    std::vector<Val> args;
    for (const auto& offset : offsets) {
      Val v = nbh;
      for (int o : offset)
        v = v.at(radius + o);
      args.push_back(v);
    }
    return f.apply(args);
  });
}

} // namespace tessera::stencils
