// HPGMG-FV's benchmark problem (hpgmg/hpgmg, finite-volume/source), written from its public
// definitions (operators/problem.fv.c, operators.fv2.c, operators/boundary_fv.c, mg.c's
// richardson_error), so that `tessera solve hpgmg3d` solves the problem HPGMG-FV solves.
#pragma once

#include "multigrid/Solver.h"

namespace tessera::multigrid {

// The variable-coefficient Poisson problem -b div(beta grad u) = f of HPGMG-FV's default build
// (a = 0, b = 1; alpha = 1 is read but multiplied by a = 0) on the unit cube of n^3 cells, in its
// 2nd-order finite-volume form (order 2, operators.fv2.c):
//   beta = 1 + 1/4 sin(2 pi x) sin(2 pi y) sin(2 pi z) at the face centres, plus h^2/24 times its
//     second derivatives along the face's two tangential directions (problem.fv.c adds them in
//     every build);
//   f = sin^7(2 pi x) sin^7(2 pi y) sin^7(2 pi z) at the cell centres plus h^2/24 times its
//     three second derivatives;
//   homogeneous Dirichlet by HPGMG's quadratic ghost (HelmholtzCoefficients::quadratic_dirichlet)
//   and the high boundary faces' beta (1) as computed (HelmholtzCoefficients::outer_beta).
// No exact solution is known: HPGMG-FV measures the error by Richardson analysis (below).
// Order 4 is the same problem with the operator of operators.fv4.c (HelmholtzFv4.h): the same
// coefficients and right-hand side (problem.fv.c's h^2/24 terms are the 4th-order conversion of
// point values to face and cell averages), its quartic boundary on grids of at least 4 cells.
Problem hpgmg_fv_problem(int64_t n, int order);

// The problem of the next coarser grid as HPGMG-FV's Richardson analysis solves it: f (and alpha)
// averaged over the 8 children, each beta over the 4 fine faces of the coarse face (the
// restriction of its multigrid hierarchy); the same constants and boundary.
Problem coarsened(const Problem& fine);

struct ErrorNorms {
  double max = 0; // max |e|
  double l2 = 0;  // sqrt(mean of e^2): the L2 norm over the unit cube
};

// || u_coarse - R u_fine ||, R the average over the 2^d children: HPGMG-FV's estimate of the
// error of u_fine (mg.c richardson_error prints its max norm as ||error|| at the fine h).
ErrorNorms richardson_difference(const std::vector<double>& fine, const std::vector<double>& coarse,
                                 int dims, int64_t n_fine);

} // namespace tessera::multigrid
