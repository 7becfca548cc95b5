// Ready problems for the solver: Poisson on the unit cube with a manufactured solution.
#pragma once

#include "multigrid/Solver.h"

namespace tessera::multigrid {

// -lap(u) = f on the unit d-cube with homogeneous Dirichlet boundaries, exact solution
// u = prod_k sin(pi x_k), f = d pi^2 u, sampled at the cell centres (cell-centred, boundary by
// antisymmetric reflection) or at the interior vertices (vertex-centred, zero boundary values).
Problem manufactured_poisson(int dims, int64_t n, Centring centring);

// The thesis's variable-coefficient Helmholtz problem a alpha u - b div(beta grad u) = f on the
// unit d-cube, cell-centred, homogeneous Dirichlet, with a = b = 1, alpha = 1 + sum_k x_k,
// beta = 1 + 1/4 sum_k cos(2 pi x_k) (sampled at the faces), and f from the exact solution
// u = prod_k sin(pi x_k): f = a alpha u - b (grad beta . grad u) + b beta d pi^2 u.
Problem manufactured_helmholtz(int dims, int64_t n);

// The Pad boundary of homogeneous Dirichlet conditions for the grid's centring.
Boundary dirichlet(Centring centring, ScalarKind kind);

} // namespace tessera::multigrid
