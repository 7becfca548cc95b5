// The variable-coefficient Helmholtz operator of the thesis (sections 2.3-2.4),
//   (L u)_p = a alpha_p u_p - b/h^2 sum_k [ beta_k[p+e_k] (u_{p+e_k} - u_p)
//                                          - beta_k[p] (u_p - u_{p-e_k}) ],
// with alpha at cell centres and beta_k on the faces: beta_k[p] is the coefficient of the face
// between p - e_k and p (the cell's low face in dimension k). The high face of the last cell is
// not stored: it reads beta_k clamped (the thesis's convention), as every coefficient is read.
// Inputs of every operator: u, f, alpha, beta_0 .. beta_{d-1}. The diagonal
// D_p = a alpha_p + b/h^2 sum_k (beta_k[p] + beta_k[p+e_k]) is computed where it is needed.
#pragma once

#include <optional>

#include "multigrid/Operators.h"

namespace tessera::multigrid {

struct HelmholtzCoefficients {
  double a = 1, b = 1;
  // HPGMG-FV's homogeneous Dirichlet boundary of its 2nd-order operator (operators.fv2.c with
  // boundary_fv.c's apply_BCs_v2): on grids of at least 2 cells per side, the ghost of a cell
  // beside the boundary is the quadratic extrapolation through a zero boundary value and the two
  // cells inside, x_ghost = -5/2 x_0 + 1/2 x_1, in place of what the Pad boundary reads (which
  // must be antisymmetric: the linear ghost HPGMG keeps on 1-cell grids). The smoothers then
  // divide by the exact diagonal (7/2 beta on a boundary face), as HPGMG's D^{-1} does. One
  // device only (a grid's box must be the whole grid).
  bool quadratic_dirichlet = false;
  // The coefficient of the faces after the last cell (the domain's high boundary); none: the
  // last stored face, clamped (the thesis's convention).
  std::optional<double> outer_beta;
  // 2: the operator above; 4: HPGMG-FV's 4th-order finite-volume form (operators.fv4.c, with its
  // quartic boundary: HelmholtzFv4.h) on grids of at least 4 cells per side, the 2nd-order form
  // with quadratic_dirichlet below. Order 4 needs quadratic_dirichlet and outer_beta.
  int order = 2;
};

// r = f - L u.
Expr helmholtz_residual(const Level& level, Boundary bc, HelmholtzCoefficients c);
// The residual's 2^d average on the coarser grid in one program (the fine residual computed where
// the average reads it, never stored): restrict_average of helmholtz_residual's result.
Expr helmholtz_residual_restricted(const Level& fine, Boundary bc, HelmholtzCoefficients c);
// helmholtz_residual's squares summed as residual_square_sums' (Operators.h).
Expr helmholtz_residual_square_sums(const Level& level, Boundary bc, HelmholtzCoefficients c,
                                    SquareSumAxis axis);
// Weighted Jacobi: u + omega (f - L u) / D.
Expr helmholtz_jacobi(const Level& level, Boundary bc, HelmholtzCoefficients c, double omega);
// A red-black half-sweep: the points of the colour get u + (f - L u) / D.
Expr helmholtz_gsrb_half_sweep(const Level& level, Boundary bc, HelmholtzCoefficients c,
                               int colour);
// The coarse coefficient of a face in dimension k: the mean of the 2^(d-1) fine faces that
// make it up (the fine low faces 2I in dimension k). Input the fine beta_k.
Expr restrict_face_coefficient(const Level& fine, int k);
// u_fine + one of HPGMG-FV's interpolations of e, as its 4th-order build uses them
// (TransferFv4.cpp): order 4, interpolation_v4 (volume-averaged quartic, the start of each
// F-cycle level) with the coarse ghosts of the 4th-order form; order 2, interpolation_v2
// (volume-averaged quadratic, V-cycles) with the quadratic ghosts. Inputs u (fine), e (coarse);
// `coarse` a whole 3-D cell-centred grid of at least 4 (order 4) or 2 (order 2) cells per side.
// One kernel: the distributed solver's (and the explorer's copies); one device runs the passes.
Expr prolong_hpgmg_fv(const Level& coarse, int order);
// The same interpolation as one pass per dimension, innermost first (its weights and ghosts are
// tensor products of 1-D ones): the pass along k refines dimension k of its input t (the coarse
// grid refined along the dimensions after k; the first pass's input is e) with the 1-D weights
// of the coarse cell's place and the fine point's parity; the last (k = 0) adds u. Each fine
// point sums the same products in the same order as the one-kernel form, and a pass reads
// 2 * reach + 1 values a point where that form reads (2 * reach + 1)^3 (343 for the quartic): one
// F-cycle of the 4th order at 512^3 on an H200 took 99.4 ms on the device with the passes, 123.4
// with the one kernel split around its interior (another lease). Inputs (u, t) for k = 0, else
// t; the result has prolong_hpgmg_fv_pass_sizes.
Expr prolong_hpgmg_fv_pass(const Level& coarse, int order, int k);
std::vector<int64_t> prolong_hpgmg_fv_pass_sizes(const Level& coarse, int k);

} // namespace tessera::multigrid
