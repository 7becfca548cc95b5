#include "dsl/FixedHalo.h"

#include "core/Error.h"
#include "dsl/Primitives.h"
#include "dsl/ValArith.h"

namespace tessera {

namespace {

// The constant extents of the outermost `dims` dimensions of `grid`.
std::vector<int64_t> extents_of(const Val& grid, int dims, int radius) {
  std::vector<int64_t> extents;
  Type t = grid.type();
  for (int d = 0; d < dims; ++d) {
    if (!t.is_array())
      user_error(cat("fixed_halo(", dims, ", ...) needs a ", dims, "-dimensional grid, got ",
                     grid.type()));
    auto n = t.length().as_constant();
    if (!n)
      user_error(cat("fixed_halo needs a grid of constant extents, got ", grid.type(),
                     " (bind the sizes first)"));
    if (*n <= 2 * radius)
      user_error(cat("fixed_halo: a halo of ", radius, " leaves no interior in an extent of ", *n,
                     " (", grid.type(), ")"));
    extents.push_back(*n);
    t = t.element();
  }
  return extents;
}

// Generate^d(p => interior(p) ? 1 : 0): built from the IR constructors, since nested generate()
// calls would type-check an inner function before the outer index has a type (as
// multigrid/Formula.cpp does).
Val interior_grid(const std::vector<int64_t>& extents, int radius) {
  const int dims = static_cast<int>(extents.size());
  Fun inside([extents, radius](const std::vector<Val>& p) {
    Val in = (p[0] >= radius) && (p[0] < extents[0] - radius);
    for (std::size_t d = 1; d < p.size(); ++d)
      in = in && (p[d] >= radius) && (p[d] < extents[d] - radius);
    return select(in, 1, 0).named("interior");
  });
  std::vector<Expr> indices;
  std::vector<ArithExpr> shape;
  for (int d = 0; d < dims; ++d) {
    indices.push_back(make_param());
    shape.push_back(ArithExpr(extents[d]));
  }
  Expr grid = make_call(inside.build(std::vector<Type>(dims, i32())), indices);
  for (int d = dims - 1; d >= 0; --d)
    grid = make_call(make_generate(shape[d], make_lambda({indices[d]}, grid)), {});
  return Val(grid, array_of(i32(), shape));
}

} // namespace

Fun fixed_halo(int dims, int radius, Fun point, std::source_location loc) {
  if (dims < 1 || dims > 3 || radius < 1)
    detail::rethrow_located(Error(cat("fixed_halo(", dims, ", ", radius,
                                      ", ...): expected 1 to 3 dimensions and a radius >= 1")),
                            loc);
  return Fun(
      [dims, radius, point, loc](Val x) {
        try {
          std::vector<int64_t> extents = extents_of(x, dims, radius);
          Val windows = x | pad_nd(dims, radius, radius, clamp) | slide_nd(dims, 2 * radius + 1, 1);
          Val both = zip_nd(dims, {windows, interior_grid(extents, radius)});
          return both | map_nd(dims, [dims, radius, point](Val t) {
                   Val window = t.get(0), centre = window;
                   for (int d = 0; d < dims; ++d)
                     centre = centre.at(radius);
                   return select(t.get(1) != 0, point(window), centre).named("keep_halo");
                 });
        } catch (const Error& e) {
          detail::rethrow_located(e, loc);
        }
      },
      loc);
}

} // namespace tessera
