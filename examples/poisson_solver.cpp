// A user's own problem solved with the multigrid solver: -lap(u) = f on the unit square with
// u = 0 on the boundary and a source made of two Gaussian bumps of opposite sign, 2-D
// cell-centred, V(2,2)-cycles with red-black Gauss-Seidel in f64 on PoCL (or TESSERA_DEVICE).
//
// The result is checked independently: the residual f - A u of the returned solution is
// recomputed here with plain loops and must be below the tolerance the solver reported.
//
//   ./build/examples/example_poisson_solver [--size 128] [--cycle V|W|F]
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>

#include "tessera/tessera.h"

using namespace tessera;
namespace mg = tessera::multigrid;

int main(int argc, char** argv) try {
  int64_t n = 128;
  std::string cycle = "V";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--size") == 0)
      n = std::stoll(argv[i + 1]);
    else if (std::strcmp(argv[i], "--cycle") == 0)
      cycle = argv[i + 1];
  }

  // The problem: cell centres x = (i + 1/2) h, two bumps at (0.3, 0.3) and (0.7, 0.6).
  mg::Problem problem;
  problem.name = "two-bumps";
  problem.dims = 2;
  problem.n = n;
  problem.centring = mg::Centring::Cell;
  problem.boundary = mg::dirichlet(mg::Centring::Cell, ScalarKind::F64);
  const double h = 1.0 / static_cast<double>(n);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      double x = (static_cast<double>(i) + 0.5) * h, y = (static_cast<double>(j) + 0.5) * h;
      auto bump = [&](double cx, double cy) {
        return std::exp(-((x - cx) * (x - cx) + (y - cy) * (y - cy)) / 0.005);
      };
      problem.rhs.push_back(100 * (bump(0.3, 0.3) - bump(0.7, 0.6)));
    }

  mg::SolverOptions options;
  options.cycle = cycle == "W"   ? mg::CycleKind::W
                  : cycle == "F" ? mg::CycleKind::F
                                 : mg::CycleKind::V;
  options.tolerance = 1e-9;

  // One of the operators the solver runs, as a program in Lift notation.
  mg::Level finest{2, n, ScalarKind::F64, mg::Centring::Cell};
  std::printf("residual operator: %s\n", print(mg::residual(finest, problem.boundary)).c_str());

  runtime::Session device = open_device();
  mg::Solver solver(device, problem, options);
  mg::SolveResult result = solver.solve();
  for (const auto& c : result.cycles)
    std::printf("cycle %2d (%s): ||r||/||f|| = %.3e, factor %.3f\n", c.cycle, c.kind.c_str(),
                c.relative, c.factor);

  // The residual of the solution, recomputed with loops (ghost cells: -u of the cell inside).
  const auto& u = result.solution;
  auto at = [&](int64_t j, int64_t i) {
    double sign = 1;
    if (j < 0 || j >= n) {
      j = j < 0 ? 0 : n - 1;
      sign = -sign;
    }
    if (i < 0 || i >= n) {
      i = i < 0 ? 0 : n - 1;
      sign = -sign;
    }
    return sign * u[static_cast<std::size_t>(j * n + i)];
  };
  double r2 = 0, f2 = 0;
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < n; ++i) {
      double lap =
          (at(j - 1, i) + at(j + 1, i) + at(j, i - 1) + at(j, i + 1) - 4 * at(j, i)) / (h * h);
      double f = problem.rhs[static_cast<std::size_t>(j * n + i)];
      r2 += (f + lap) * (f + lap);
      f2 += f * f;
    }
  double relative = std::sqrt(r2 / f2);
  std::printf("residual recomputed on the host: %.3e (solver: %.3e)\n", relative,
              result.cycles.back().relative);
  if (!result.converged || !(relative <= 2 * options.tolerance)) {
    std::printf("MISMATCH: the solution does not solve the problem\n");
    return 1;
  }
  std::printf("solved in %zu cycles\n", result.cycles.size());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
