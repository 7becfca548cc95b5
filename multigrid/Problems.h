// Ready problems for the solver: Poisson on the unit cube with a manufactured solution.
#pragma once

#include "multigrid/Solver.h"

namespace tessera::multigrid {

// -lap(u) = f on the unit d-cube with homogeneous Dirichlet boundaries, exact solution
// u = prod_k sin(pi x_k), f = d pi^2 u, sampled at the cell centres (cell-centred, boundary by
// antisymmetric reflection) or at the interior vertices (vertex-centred, zero boundary values).
PoissonProblem manufactured_poisson(int dims, int64_t n, Centring centring);

// The Pad boundary of homogeneous Dirichlet conditions for the grid's centring.
Boundary dirichlet(Centring centring, ScalarKind kind);

} // namespace tessera::multigrid
