// The solver on the test device: convergence factors, discretisation error, precisions, cycles.
#include <doctest/doctest.h>

#include <cmath>

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

TEST_CASE("multigrid solver: Jacobi, W-cycles and F-cycles converge; W at least as fast as V") {
  auto p = manufactured_poisson(2, 31, Centring::Vertex);
  SolverOptions o;
  o.smoother = SmootherKind::Jacobi;
  o.tolerance = 1e-8;
  auto jacobi = solve(p, o);
  CHECK(jacobi.converged);
  CHECK(jacobi.mean_factor() < 0.35);
  o.cycle = CycleKind::W;
  auto w = solve(p, o);
  CHECK(w.converged);
  CHECK(w.mean_factor() <= jacobi.mean_factor() + 1e-3);
  o.smoother = SmootherKind::GaussSeidel;
  o.cycle = CycleKind::F;
  auto f = solve(p, o);
  CHECK(f.converged);
  REQUIRE(f.cycles.size() >= 1);
  CHECK(f.cycles[0].kind == "F");
  // One full-multigrid cycle already gets close to the discretisation error.
  CHECK(f.cycles[0].relative < 0.05);
}

TEST_CASE("multigrid solver: f32 stagnates above 1e-10, mixed precision reaches it") {
  auto p = manufactured_poisson(3, 15, Centring::Vertex);
  SolverOptions o;
  o.precision = Precision::F32;
  o.max_cycles = 30;
  auto single = solve(p, o);
  CHECK_FALSE(single.converged);
  CHECK(single.stop_reason == "stagnated");
  CHECK(single.cycles.back().relative < 1e-4);
  o.precision = Precision::Mixed;
  auto mixed = solve(p, o);
  CHECK(mixed.converged);
  CHECK(mixed.cycles.back().relative <= 1e-10);
  o.precision = Precision::F64;
  auto wide = solve(p, o);
  REQUIRE(wide.max_error);
  REQUIRE(mixed.max_error);
  CHECK(std::abs(*mixed.max_error - *wide.max_error) < 1e-8);
}

TEST_CASE("multigrid solver: bad problems and options are refused with a reason") {
  SolverOptions o;
  CHECK_THROWS_WITH(solve(manufactured_poisson(3, 6, Centring::Vertex), o),
                    doctest::Contains("does not coarsen"));
  o.pre = o.post = 0;
  CHECK_THROWS_WITH(solve(manufactured_poisson(2, 15, Centring::Vertex), o),
                    doctest::Contains("smoothing steps"));
  o = {};
  o.max_cycles = 0;
  CHECK_THROWS_WITH(solve(manufactured_poisson(2, 15, Centring::Vertex), o),
                    doctest::Contains("cycle limit"));
  CHECK_THROWS_WITH(manufactured_poisson(4, 16, Centring::Cell),
                    doctest::Contains("1, 2 or 3 dimensions"));
}
