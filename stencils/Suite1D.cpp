// 1-D Jacobi stencils, clamped boundary, f32.
#include "stencils/Neighbourhood.h"

namespace tessera::stencils {

namespace {

Expr j1d3pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 1, "j1d3pt");
  return point_stencil("jacobi3", e, clamp, ScalarKind::F32,
                       [](Points& p) { return (p(-1) + p(0) + p(1)) / 3; });
}

// Thesis section 4.3.2's 1-D 7-point Jacobi (the thesis gives no coefficients: the mean), as a
// reduction over each window: divideBy7(Reduce(add, 0.0f) $ window).
Expr j1d7pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 1, "j1d7pt");
  Fun divide = user_fun("divideBy7", [](auto x) { return x / 7; });
  return neighbourhood_stencil(e, ScalarKind::F32, 3, clamp, [=](Val window) {
    return divide((window | reduce(add_fun(), 0.0f)).at(0));
  });
}

} // namespace

std::vector<StencilInfo> suite_1d() {
  return {
      {.name = "j1d3pt",
       .description = "1-D 3-point Jacobi (x[i-1] + x[i] + x[i+1]) / 3",
       .dims = 1,
       .build = j1d3pt,
       .radius = 1,
       .points = 3,
       .bytes_per_cell = 8},
      {.name = "j1d7pt",
       .description = "1-D 7-point Jacobi (thesis 4.3.2): ((((0 + x[i-3]) + x[i-2]) + ... + "
                      "x[i+3]) / 7, a Reduce over each window",
       .dims = 1,
       .build = j1d7pt,
       .radius = 3,
       .points = 7,
       .bytes_per_cell = 8},
  };
}

} // namespace tessera::stencils
