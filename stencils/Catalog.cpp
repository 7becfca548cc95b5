#include "stencils/Catalog.h"

#include "core/Error.h"
#include "dsl/Dsl.h"

namespace tessera::stencils {

namespace {

Type grid(const std::vector<ArithExpr>& extents) { return array_of(f32(), extents); }

void require_dims(const std::vector<ArithExpr>& extents, std::size_t dims, const char* name) {
  if (extents.size() != dims)
    user_error(cat(name, " is a ", dims, "-D stencil: give ", dims, " extent(s), got ",
                   extents.size()));
}

// A neighbourhood stencil: pad by the radius with the boundary, slide windows of 2r+1 and apply
// `point` to each neighbourhood.
Expr neighbourhood_stencil(const char* name, const std::vector<ArithExpr>& extents, int radius,
                           Boundary boundary, const std::function<Val(Val)>& point) {
  int dims = static_cast<int>(extents.size());
  Val x = input("x", grid(extents));
  (void)name;
  return program({x}, x | pad_nd(dims, radius, radius, boundary) |
                          slide_nd(dims, 2 * radius + 1, 1) | map_nd(dims, Fun(point)));
}

Expr j1d3pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 1, "j1d3pt");
  auto f = user_fun("jacobi3", [](auto w, auto c, auto east) { return (w + c + east) / 3.0; });
  return neighbourhood_stencil("j1d3pt", e, 1, clamp,
                               [=](Val n) { return f(n.at(0), n.at(1), n.at(2)); });
}

Expr j2d5pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 2, "j2d5pt");
  auto f = user_fun("jacobi5", [](auto n, auto w, auto c, auto east, auto s) {
    return (n + w + c + east + s) * 0.2;
  });
  return neighbourhood_stencil("j2d5pt", e, 1, clamp, [=](Val v) {
    return f(v.at(0).at(1), v.at(1).at(0), v.at(1).at(1), v.at(1).at(2), v.at(2).at(1));
  });
}

Expr j3d7pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 3, "j3d7pt");
  auto f = user_fun("jacobi7", [](auto b, auto n, auto w, auto c, auto east, auto s, auto t) {
    return (b + n + w + c + east + s + t) * (1.0 / 7.0);
  });
  return neighbourhood_stencil("j3d7pt", e, 1, clamp, [=](Val v) {
    auto at3 = [&](int i, int j, int k) { return v.at(i).at(j).at(k); };
    return f(at3(0, 1, 1), at3(1, 0, 1), at3(1, 1, 0), at3(1, 1, 1), at3(1, 1, 2), at3(1, 2, 1),
             at3(2, 1, 1));
  });
}

} // namespace

const std::vector<StencilInfo>& catalog() {
  static const std::vector<StencilInfo> entries = {
      {"j1d3pt", "1-D 3-point Jacobi, clamped boundary", 1, 1, j1d3pt},
      {"j2d5pt", "2-D 5-point Jacobi, clamped boundary", 2, 1, j2d5pt},
      {"j3d7pt", "3-D 7-point Jacobi, clamped boundary", 3, 1, j3d7pt},
  };
  return entries;
}

const StencilInfo& find_stencil(const std::string& name) {
  std::string names;
  for (const auto& s : catalog()) {
    if (s.name == name) return s;
    names += (names.empty() ? "" : ", ") + s.name;
  }
  user_error(cat("unknown stencil '", name, "': the catalog has ", names));
}

} // namespace tessera::stencils
