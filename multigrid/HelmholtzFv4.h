// HPGMG-FV's 4th-order finite-volume form of the variable-coefficient operator (internal to
// multigrid/; Helmholtz.h's operators take it under HelmholtzCoefficients::order 4), written from
// the public definitions of hpgmg/hpgmg's finite-volume/source:
//   operators.fv4.c: (L u)_p = a alpha_p u_p - b/h^2 [ 1/12 sum_k (beta_k[p] (15 (u_{p-e_k} - u_p)
//     - (u_{p-2e_k} - u_{p+e_k})) + beta_k[p+e_k] (15 (u_{p+e_k} - u_p) - (u_{p+2e_k} -
//     u_{p-e_k})))
//     + 1/48 sum_k sum_{j != k} ((beta_k[p+e_j] - beta_k[p-e_j]) (u_{p-e_k+e_j} - u_{p+e_j}
//     - u_{p-e_k-e_j} + u_{p-e_j}) + (beta_k[p+e_k+e_j] - beta_k[p+e_k-e_j]) (u_{p+e_k+e_j}
//     - u_{p+e_j} - u_{p+e_k-e_j} + u_{p-e_j})) ];
//   boundary_fv.c apply_BCs_v4 (homogeneous Dirichlet): the two ghost layers of a face are the
//     quartic extrapolations through a zero boundary value, (-77, 43, -17, 3)/12 and
//     (-505, 335, -145, 27)/12 times the four cells inside; an edge's ghosts the same applied
//     along both of its directions;
//   boundary_fv.c extrapolate_betas: a face coefficient read one cell beyond the domain along a
//     tangential direction is extrapolated from the five faces inside (5, -10, 10, -5, 1; on
//     4-cell grids the cubic 4, -6, 4, -1); the faces of the high boundary are outer_beta.
// The smoothers divide by the exact diagonal of that operator (its ghosts' dependence on u_p
// included), as HPGMG's black-box D^{-1} does. Every ghost is computed where it is read (from
// index-computed side codes), so no array is added; a point reads u up to 3 cells away and beta
// up to 4 along a face. Points 2 or more cells from every boundary take the form without those
// selections (one selection chooses it), so that a device branches there instead of evaluating
// every extrapolation. One device only (a grid's box must be the whole grid).
#pragma once

#include <string>
#include <vector>

#include "multigrid/Helmholtz.h"

namespace tessera::multigrid::detail {

// Whether `level` takes the 4th-order form: order 4 on a grid of at least 4 cells per side.
// Below, HPGMG's apply_BCs_v4 falls back to its 2nd-order boundary; tessera's coarsest levels
// run the 2nd-order operator with its quadratic boundary there (they only precondition).
bool uses_fv4(const Level& level, const HelmholtzCoefficients& c);

// The points a form is exact on. Whole: every point (each ghost selected by the point's side
// codes; most points take the form without ghosts, chosen by one selection). Interior: those 2 or
// more cells from every boundary (no side selections, no extrapolations), for a kernel launched
// on the interior (OperatorSpec::interior_build); a restricted residual's coarse points 1 or more
// from every boundary. Slab: those 2 or more from both boundaries along the dimensions in
// `inside` (bit k: dimension k of the level, outermost first), with the extrapolations of the
// others alone, for the kernels launched on the slabs around the interior
// (OperatorSpec::slab_build). On an H200 the whole form's residual at 512^3 took 77 ms, its
// interior version 40 ms, the interior form 3.9 ms: the extrapolations' code costs even untaken.
struct Fv4Region {
  enum Kind { Whole, Interior, Slab } kind = Whole;
  unsigned inside = 0; // a Slab's
};
// The name of a formula `name` in a region's form: nameInterior, nameSlab<inside>, or name.
std::string fv4_form_name(const std::string& name, Fv4Region region);
Expr fv4_residual(const Level& level, const HelmholtzCoefficients& c, bool restricted,
                  Fv4Region region = {});
Expr fv4_jacobi(const Level& level, const HelmholtzCoefficients& c, double omega,
                Fv4Region region = {});
Expr fv4_gsrb_half_sweep(const Level& level, const HelmholtzCoefficients& c, int colour,
                         Fv4Region region = {});
// The margin from every edge where the interior form is exact: 2 cells, 1 coarse cell restricted.
constexpr int64_t kFv4InteriorMargin = 2;

// The interior form's point function (fv4_form_name(name, Interior)) takes, in order: u at each
// of `u` (offsets along the level's dimensions, outermost first), f, alpha, then beta_k at each
// of beta[k] for k = 0 .. d - 1, then the update's own arguments (a half-sweep's: whether the
// point is of its colour). Kernels written around the function (Fv4Step.h) call it so.
struct Fv4InteriorReads {
  std::vector<std::vector<int>> u;
  std::vector<std::vector<std::vector<int>>> beta;
};
Fv4InteriorReads fv4_interior_reads(int dims);

} // namespace tessera::multigrid::detail
