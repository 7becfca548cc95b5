// 3-D stencils of the PPCG benchmarks as the Lift stencil paper (CGO 2018) writes them, clamped
// boundary, f32 arithmetic (coefficients are f32 literals). Offsets are (k, j, i): Front/Back
// k-1/k+1, North/South j-1/j+1, West/East i-1/i+1.
#include "stencils/Neighbourhood.h"

namespace tessera::stencils {

namespace {

// The seven points of the 3-D star of radius r.
struct Star {
  Points& p;
  int r = 1;
  Sym c() { return p(0, 0, 0); }
  Sym f() { return p(-r, 0, 0); }
  Sym b() { return p(r, 0, 0); }
  Sym n() { return p(0, -r, 0); }
  Sym s() { return p(0, r, 0); }
  Sym w() { return p(0, 0, -r); }
  Sym e() { return p(0, 0, r); }
};

Expr j3d7pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 3, "j3d7pt");
  return point_stencil("jacobi7", e, clamp, ScalarKind::F32, [](Points& p) {
    Star x{p};
    return 0.161 * x.e() + 0.162 * x.w() + 0.163 * x.s() + 0.164 * x.n() + 0.165 * x.b() +
           0.166 * x.f() - 1.67 * x.c();
  });
}

Expr j3d13pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 3, "j3d13pt");
  return point_stencil("jacobi13", e, clamp, ScalarKind::F32, [](Points& p) {
    Star x1{p, 1}, x2{p, 2};
    return 0.083 * x2.e() + 0.083 * x1.e() + 0.083 * x1.w() + 0.083 * x2.w() + 0.083 * x2.s() +
           0.083 * x1.s() + 0.083 * x1.n() + 0.083 * x2.n() + 0.083 * x2.b() + 0.083 * x1.b() +
           0.083 * x1.f() + 0.083 * x2.f() - 0.996 * x1.c();
  });
}

Expr j3d27pt(const std::vector<ArithExpr>& e) {
  require_dims(e, 3, "j3d27pt");
  // Per plane k = -1, 0, 1 the weights of the 3x3 (j, i) box, row-major.
  static const double w[3][9] = {{0.5, 0.7, 0.9, 1.2, 1.5, 1.2, 0.9, 0.7, 0.5},
                                 {0.51, 0.71, 0.91, 1.21, 1.51, 1.21, 0.91, 0.71, 0.51},
                                 {0.52, 0.72, 0.92, 1.22, 1.52, 1.22, 0.92, 0.72, 0.52}};
  return point_stencil("jacobi27", e, clamp, ScalarKind::F32, [](Points& p) {
    Sym sum = w[0][0] * p(-1, -1, -1);
    for (int m = 1; m < 27; ++m)
      sum = sum + w[m / 9][m % 9] * p(m / 9 - 1, m % 9 / 3 - 1, m % 3 - 1);
    return sum / 159;
  });
}

Expr heat3d(const std::vector<ArithExpr>& e) {
  require_dims(e, 3, "heat3d");
  return point_stencil("heat", e, clamp, ScalarKind::F32, [](Points& p) {
    Star x{p};
    return 0.125 * (x.b() - 2.0 * x.c() + x.f()) + 0.125 * (x.s() - 2.0 * x.c() + x.n()) +
           0.125 * (x.e() - 2.0 * x.c() + x.w()) + x.c();
  });
}

Expr poisson3d(const std::vector<ArithExpr>& e) {
  require_dims(e, 3, "poisson3d");
  return point_stencil("poisson", e, clamp, ScalarKind::F32, [](Points& p) {
    Star x{p};
    Sym edges = p(-1, -1, 0) + p(1, -1, 0) + p(-1, 1, 0) + p(1, 1, 0) + p(-1, 0, -1) + p(1, 0, -1) +
                p(0, -1, -1) + p(0, 1, -1) + p(-1, 0, 1) + p(1, 0, 1) + p(0, -1, 1) + p(0, 1, 1);
    return 2.666 * x.c() - 0.166 * (x.f() + x.b() + x.n() + x.s() + x.e() + x.w()) - 0.0833 * edges;
  });
}

} // namespace

std::vector<StencilInfo> suite_3d() {
  return {
      {.name = "j3d7pt",
       .description = "3-D 7-point Jacobi (PPCG): 0.161*E + 0.162*W + 0.163*S + 0.164*N + "
                      "0.165*B + 0.166*F - 1.67*C",
       .dims = 3,
       .build = j3d7pt,
       .radius = 1,
       .points = 7,
       .bytes_per_cell = 8},
      {.name = "j3d13pt",
       .description = "3-D 13-point Jacobi, star of radius 2 (PPCG): 0.083*(EE + E + W + WW + "
                      "SS + S + N + NN + BB + B + F + FF, each term multiplied) - 0.996*C",
       .dims = 3,
       .build = j3d13pt,
       .radius = 2,
       .points = 13,
       .bytes_per_cell = 8},
      {.name = "j3d27pt",
       .description = "3-D 27-point Jacobi, 3x3x3 box (PPCG): plane weights [0.5 0.7 0.9; 1.2 "
                      "1.5 1.2; 0.9 0.7 0.5] + 0.01*(k+1) for k = -1, 0, 1, row-major sum / 159",
       .dims = 3,
       .build = j3d27pt,
       .radius = 1,
       .points = 27,
       .bytes_per_cell = 8},
      {.name = "heat3d",
       .description = "3-D heat equation step u + 0.125*(sum of 6 neighbours - 6u), written "
                      "0.125*(B - 2C + F) + 0.125*(S - 2C + N) + 0.125*(E - 2C + W) + C (Lift)",
       .dims = 3,
       .build = heat3d,
       .radius = 1,
       .points = 7,
       .bytes_per_cell = 8},
      {.name = "poisson3d",
       .description = "3-D 19-point Poisson (Lift): 2.666*C - 0.166*(F + B + N + S + E + W) - "
                      "0.0833*(FN + BN + FS + BS + FW + BW + NW + SW + FE + BE + NE + SE)",
       .dims = 3,
       .build = poisson3d,
       .radius = 1,
       .points = 19,
       .bytes_per_cell = 8},
  };
}

} // namespace tessera::stencils
