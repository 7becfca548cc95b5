// 2-D stencils of the PPCG benchmarks as the Lift stencil paper (CGO 2018) writes them, clamped
// boundary, f32 arithmetic (integer and decimal coefficients are f32 literals). Offsets are
// (row, column): north (-1, 0), west (0, -1).
#include "stencils/Neighbourhood.h"

namespace tessera::stencils {

namespace {

// sum over the (2r+1)^2 box, row-major, of w[a][b] * x[i+a-r][j+b-r], added left to right.
template <int Side> Sym box_sum(Points& p, const int (&w)[Side][Side]) {
  const int r = Side / 2;
  Sym sum = w[0][0] * p(-r, -r);
  for (int k = 1; k < Side * Side; ++k)
    sum = sum + w[k / Side][k % Side] * p(k / Side - r, k % Side - r);
  return sum;
}

Expr j2d5pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 2, "j2d5pt");
  return point_stencil("jacobi5", e, clamp, ScalarKind::F32, [](Points& p) {
    return (5 * p(-1, 0) + 12 * p(0, -1) + 15 * p(0, 0) + 5 * p(1, 0) + 12 * p(0, 1)) / 118;
  });
}

Expr j2d9pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 2, "j2d9pt");
  static const int w[3][3] = {{7, 5, 9}, {12, 15, 12}, {9, 5, 7}};
  return point_stencil("jacobi9", e, clamp, ScalarKind::F32,
                       [](Points& p) { return box_sum(p, w) / 118; });
}

Expr gaussian(const std::vector<ArithExpr>& e) {
  require_dims(e, 2, "gaussian");
  static const int w[5][5] = {
      {2, 4, 5, 4, 2}, {4, 9, 12, 9, 4}, {5, 12, 15, 12, 5}, {4, 9, 12, 9, 4}, {2, 4, 5, 4, 2}};
  return point_stencil("gauss5x5", e, clamp, ScalarKind::F32,
                       [](Points& p) { return box_sum(p, w) / 159; });
}

Expr grad2d(const std::vector<ArithExpr>& e) {
  require_dims(e, 2, "grad2d");
  return point_stencil("grad", e, clamp, ScalarKind::F32, [](Points& p) {
    Sym c = p(0, 0), n = p(-1, 0), s = p(1, 0), east = p(0, 1), w = p(0, -1);
    return c + 1.0 / sqrt(0.0001 + (c - n) * (c - n) + (c - s) * (c - s) + (c - east) * (c - east) +
                          (c - w) * (c - w));
  });
}

} // namespace

std::vector<StencilInfo> suite_2d() {
  return {
      {.name = "j2d5pt",
       .description = "2-D 5-point Jacobi (PPCG): (5*N + 12*W + 15*C + 5*S + 12*E) / 118",
       .dims = 2,
       .build = j2d5pt,
       .radius = 1,
       .points = 5,
       .bytes_per_cell = 8},
      {.name = "j2d9pt",
       .description = "2-D 9-point Jacobi, 3x3 box (PPCG): (7*NW + 5*N + 9*NE + 12*W + 15*C + "
                      "12*E + 9*SW + 5*S + 7*SE) / 118",
       .dims = 2,
       .build = j2d9pt,
       .radius = 1,
       .points = 9,
       .bytes_per_cell = 8},
      {.name = "gaussian",
       .description = "5x5 Gaussian blur, radius 2 (PPCG): weights [2 4 5 4 2; 4 9 12 9 4; 5 12 "
                      "15 12 5; 4 9 12 9 4; 2 4 5 4 2], row-major sum / 159",
       .dims = 2,
       .build = gaussian,
       .radius = 2,
       .points = 25,
       .bytes_per_cell = 8},
      {.name = "grad2d",
       .description = "2-D gradient (PPCG grad2d): C + 1 / sqrt(0.0001 + (C-N)^2 + (C-S)^2 + "
                      "(C-E)^2 + (C-W)^2)",
       .dims = 2,
       .build = grad2d,
       .radius = 1,
       .points = 5,
       .bytes_per_cell = 8},
  };
}

} // namespace tessera::stencils
