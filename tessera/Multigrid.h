// tessera's public C++ API: the geometric multigrid solver.
//
//   tessera::multigrid::Problem problem;          // -lap(u) = f on the unit square/cube
//   problem.dims = 2; problem.n = 256;                    // 256^2 cells
//   problem.boundary = tessera::multigrid::dirichlet(tessera::multigrid::Centring::Cell,
//                                                    tessera::ScalarKind::F64);
//   problem.rhs = my_rhs;                                 // n^dims values, row-major
//   tessera::multigrid::SolverOptions options;            // V(2,2), red-black Gauss-Seidel, f64
//   auto device = tessera::open_device();
//   tessera::multigrid::Solver solver(device, problem, options);
//   tessera::multigrid::SolveResult result = solver.solve();  // residual history, breakdown, u
//
// Every operator (multigrid/Operators.h: residual, weighted Jacobi, red-black half-sweeps,
// restrictions, interpolations) is a tessera program written with the DSL; the solver runs each
// level's operators as kernels chosen by the tuner (the plain lowering, a named variant, or the
// explored best from the tuning database), in schedules enqueued without host round trips.
// docs/multigrid.md describes the operators, the cycles, the precisions and the tuning database.
#pragma once

#include "multigrid/Operators.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
