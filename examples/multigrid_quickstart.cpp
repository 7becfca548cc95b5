// docs/multigrid.md's C++ example, line for line (the test docs_multigrid_example checks that
// the document holds the lines between the markers): -lap(u) = f on the unit square with
// u = 0 on the boundary, solved by V-cycles on PoCL (or TESSERA_DEVICE).
//
//   ./build/examples/example_multigrid_quickstart
// [docs/multigrid.md]
#include <cstdio>

#include "tessera/tessera.h"

namespace mg = tessera::multigrid;

int main() {
  mg::Problem problem; // -lap(u) = f on the unit square (dims = 2)
  problem.dims = 2;
  problem.n = 64; // 64 x 64 cells
  problem.centring = mg::Centring::Cell;
  // u = 0 on the boundary (the default, mg::Boundary::clamp(), is Neumann: see below).
  problem.boundary = mg::dirichlet(problem.centring, tessera::ScalarKind::F64);
  problem.rhs.assign(64 * 64, 1.0); // f, row-major
  mg::SolverOptions options;        // V(2,2)-cycles, red-black Gauss-Seidel, f64
  options.tolerance = 1e-8;
  tessera::runtime::Session device = tessera::open_device();
  mg::Solver solver(device, problem, options); // builds every level's kernels
  mg::SolveResult result = solver.solve();
  for (const mg::CycleRecord& c : result.cycles)
    std::printf("cycle %d: ||r||/||f|| %.2e, %.2f ms on the device\n", c.cycle, c.relative,
                c.device_ms);
  std::printf("%s; kernels built in %.1f s before cycle 1\n", result.stop_reason.c_str(),
              result.build_ms / 1000);
  if (!result.converged)
    std::printf("hint: %s\n", result.hint.c_str());
  return result.converged ? 0 : 1;
}
// [/docs/multigrid.md]
