// The thesis's geometric-multigrid operators (stencils/Thesis.h) as catalog entries. They are
// written in lowered form (MapGlb, ReduceSeq) as the thesis's listings give them, on cubic
// grids n x n x n. The extents are always those of the operator's (first) input grid: the fine
// grid for restrict3d, the coarse grid for prolong3d.
#include "core/Error.h"
#include "stencils/Neighbourhood.h"
#include "stencils/Thesis.h"

namespace tessera::stencils {

namespace {

// The Helmholtz operator a*alpha*phi - b*h2inv*div(beta grad phi) of the residual and the
// smoother, for a unit grid spacing.
constexpr double kA = 1.0, kB = 1.0, kH2inv = 1.0;

ArithExpr cube_side(const std::vector<ArithExpr>& e, const std::string& name) {
  require_dims(e, 3, name);
  if (!(e[0] == e[1] && e[1] == e[2]))
    user_error(cat(name, " works on cubic grids n x n x n (the thesis's operators), got ",
                   e[0].to_string(), " x ", e[1].to_string(), " x ", e[2].to_string()));
  return e[0];
}

Expr restrict3d(const std::vector<ArithExpr>& e) {
  ArithExpr n = cube_side(e, "restrict3d");
  if (auto c = n.as_constant(); c && *c % 2 != 0)
    user_error(cat("restrict3d needs an even fine grid side, got ", *c));
  return restrict_3d(n);
}

Expr prolong3d(const std::vector<ArithExpr>& e) {
  return prolong_3d(cube_side(e, "prolong3d"));
}

Expr residual3d(const std::vector<ArithExpr>& e) {
  return residual_3d(cube_side(e, "residual3d"), kA, kB, kH2inv);
}

Expr gsrb3d(const std::vector<ArithExpr>& e) {
  return gsrb_smooth_3d_generated(cube_side(e, "gsrb3d"), kA, kB, kH2inv, 0);
}

} // namespace

std::vector<StencilInfo> multigrid_entries() {
  return {
      {.name = "restrict3d",
       .description = "GMG restriction (thesis Listing 2.3, lowered): extents of the fine grid "
                      "n^3, n even; out[i][j][k] = (0 + the 2x2x2 block at (2i,2j,2k), "
                      "row-major) * 0.125, result (n/2)^3 of [f32]_1",
       .dims = 3,
       .build = restrict3d,
       .radius = 1,
       .points = 8,
       .bytes_per_cell = 36},
      {.name = "prolong3d",
       .description = "GMG prolongation (thesis Listing 2.5, lowered): extents of the coarse grid "
                      "n^3; inputs matrix n^3 and weights [2][2][2] (outer product of [0.25, "
                      "0.75]: trilinear interpolation); clamped; result (2n)^3 of [f32]_1",
       .dims = 3,
       .inputs = 2,
       .build = prolong3d,
       .radius = 1,
       .points = 8,
       .bytes_per_cell = 4.5},
      {.name = "residual3d",
       .description = "GMG residual (thesis Listing 2.8, lowered): inputs alpha, beta_i, beta_j, "
                      "beta_k, phi, rhs (n^3), rhs - (a*alpha*phi - b*h2inv*div(beta grad phi)) "
                      "with a = b = h2inv = 1, clamped",
       .dims = 3,
       .inputs = 6,
       .build = residual3d,
       .radius = 1,
       .points = 7,
       .bytes_per_cell = 28},
      {.name = "gsrb3d",
       .description = "GMG red-black Gauss-Seidel step (thesis Listing 2.10 with Generate, "
                      "lowered): inputs alpha, beta_i, beta_j, beta_k, phi, lambda, rhs (n^3); "
                      "where (i+j+k) is even phi - lambda*(helmholtz - rhs), else phi; a = b = "
                      "h2inv = 1, clamped",
       .dims = 3,
       .inputs = 7,
       .build = gsrb3d,
       .radius = 1,
       .points = 7,
       .bytes_per_cell = 32},
  };
}

} // namespace tessera::stencils
