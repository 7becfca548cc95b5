// The anisotropic Poisson problem, the classic case for line relaxation:
//   -sum_k c_k d^2u/dx_k^2 = f on the unit d-cube, homogeneous Dirichlet, cell-centred,
// with coupling c_k = epsilon along y (dimension d-2) and 1 along the other dimensions, exact
// solution u = prod_k sin(pi x_k) (f = pi^2 sum_k c_k u). It is written in the variable-
// coefficient form of Helmholtz.h (a = 0, b = 1, beta_k = c_k), which line relaxation needs.
#pragma once

#include "multigrid/Solver.h"

namespace tessera::multigrid {

// dims 2 or 3; epsilon > 0 (1: the isotropic Poisson problem).
Problem anisotropic_poisson(int dims, int64_t n, double epsilon);

} // namespace tessera::multigrid
