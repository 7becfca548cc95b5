// The variable-coefficient Helmholtz operator of the thesis (sections 2.3-2.4),
//   (L u)_p = a alpha_p u_p - b/h^2 sum_k [ beta_k[p+e_k] (u_{p+e_k} - u_p)
//                                          - beta_k[p] (u_p - u_{p-e_k}) ],
// with alpha at cell centres and beta_k on the faces: beta_k[p] is the coefficient of the face
// between p - e_k and p (the cell's low face in dimension k). The high face of the last cell is
// not stored: it reads beta_k clamped (the thesis's convention), as every coefficient is read.
// Inputs of every operator: u, f, alpha, beta_0 .. beta_{d-1}. The diagonal
// D_p = a alpha_p + b/h^2 sum_k (beta_k[p] + beta_k[p+e_k]) is computed where it is needed.
#pragma once

#include "multigrid/Operators.h"

namespace tessera::multigrid {

struct HelmholtzCoefficients {
  double a = 1, b = 1;
};

// r = f - L u.
Expr helmholtz_residual(const Level& level, Boundary bc, HelmholtzCoefficients c);
// Weighted Jacobi: u + omega (f - L u) / D.
Expr helmholtz_jacobi(const Level& level, Boundary bc, HelmholtzCoefficients c, double omega);
// A red-black half-sweep: the points of the colour get u + (f - L u) / D.
Expr helmholtz_gsrb_half_sweep(const Level& level, Boundary bc, HelmholtzCoefficients c,
                               int colour);
// The coarse coefficient of a face in dimension k: the mean of the 2^(d-1) fine faces that
// make it up (the fine low faces 2I in dimension k). Input the fine beta_k.
Expr restrict_face_coefficient(const Level& fine, int k);

} // namespace tessera::multigrid
