// The solver on the test device: convergence factors, discretisation error, precisions, cycles.
#include <doctest/doctest.h>

#include "explore/runtime/Session.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

runtime::Session& session() {
  static auto* s = new runtime::Session(runtime::Session::from_env());
  return *s;
}

SolveResult solve(const PoissonProblem& p, SolverOptions o) {
  Solver solver(session(), p, std::move(o));
  return solver.solve();
}

} // namespace

TEST_CASE("multigrid solver: vertex-centred 3-D Poisson, V(2,2) with Gauss-Seidel") {
  auto p = manufactured_poisson(3, 15, Centring::Vertex);
  SolverOptions o;
  o.max_cycles = 12;
  auto r = solve(p, o);
  for (const auto& c : r.cycles)
    MESSAGE("cycle " << c.cycle << " residual " << c.relative << " factor " << c.factor);
  CHECK(r.converged);
  CHECK(r.mean_factor() < 0.2);
  REQUIRE(r.max_error);
  MESSAGE("max error " << *r.max_error);
  CHECK(*r.max_error < 0.01);
}
