// The solver on the test device: convergence factors, discretisation error, precisions, cycles.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <type_traits>

#include "../TempDir.h"
#include "DeviceSession.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

SolveResult solve(const Problem& p, SolverOptions o) {
  Solver solver(testing::multigrid_session(), p, std::move(o));
  return solver.solve();
}

} // namespace

TEST_CASE("multigrid solver: vertex-centred 3-D Poisson, V(2,2) with Gauss-Seidel") {
  auto p = manufactured_poisson(3, 15, Centring::Vertex);
  SolverOptions o;
  o.max_cycles = 12;
  auto r = solve(p, o);
  CHECK(r.converged);
  CHECK(r.mean_factor() < 0.2);
  REQUIRE(r.max_error);
  CHECK(*r.max_error < 0.01);
}

// Profiling events cost a launch time on a GPU: by default a cycle's device time is the span of
// its kernels (two events), every kernel timed only when asked.
TEST_CASE("multigrid solver: kernels are timed one by one only with profile_kernels") {
  auto p = manufactured_poisson(3, 15, Centring::Vertex);
  SolverOptions o;
  o.max_cycles = 4;
  o.tolerance = 1e-30;
  o.coarse_launch_side = 0; // several launches a level
  auto span = solve(p, o);
  o.profile_kernels = true;
  auto each = solve(p, o);
  CHECK(span.breakdown.empty());
  REQUIRE(each.breakdown.count("smooth") == 1);
  REQUIRE(span.cycles.size() == each.cycles.size());
  double summed = 0, by_operator = 0;
  for (std::size_t c = 0; c < span.cycles.size(); ++c) {
    CHECK(span.cycles[c].residual == each.cycles[c].residual);
    CHECK(span.cycles[c].device_ms > 0);
    // The span lies within the cycle's wall time (host and device clocks apart: 1 ms slack).
    CHECK(span.cycles[c].device_ms <= span.cycles[c].wall_ms + 1.0);
    summed += each.cycles[c].device_ms;
  }
  for (const auto& [label, t] : each.breakdown)
    by_operator += t.ms;
  CHECK(by_operator == doctest::Approx(summed).epsilon(1e-9));
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
  // Its bytes a cycle: the f32 correction cycle's (fewer than the f64 cycle's), the update
  // u += e in f64 (reads e and u, writes u) and the f64 residual.
  const double points = 15.0 * 15 * 15;
  REQUIRE(mixed.bytes_per_cycle.count("update"));
  CHECK(mixed.bytes_per_cycle.at("update") == 3 * points * 8);
  CHECK(mixed.bytes_per_cycle.at("residual") == 3 * points * 8); // reads u and f, writes r
  auto correction_bytes = [](const SolveResult& r) {
    double total = 0;
    for (const auto& [label, bytes] : r.bytes_per_cycle)
      total += label == "update" || label == "residual" ? 0 : bytes;
    return total;
  };
  CHECK(correction_bytes(mixed) > 0);
  CHECK(correction_bytes(mixed) < correction_bytes(wide));
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
  for (int steps : {0, 5}) {
    o = {};
    o.wavefront_steps = steps;
    CHECK_THROWS_WITH(solve(manufactured_poisson(2, 15, Centring::Vertex), o),
                      doctest::Contains("a wavefront computes 1 to 4 red-black steps a pass"));
  }
  CHECK_THROWS_WITH(manufactured_poisson(4, 16, Centring::Cell),
                    doctest::Contains("1, 2 or 3 dimensions"));
}

// The extended tier (CMakeLists.txt): the tuning database as the solver uses it, explored at a
// budget per operator (40 s of a cold run).
TEST_CASE("multigrid tuning: explored choices are stored, reused, and rebuilt when corrupt" *
          doctest::test_suite("extended")) {
  namespace fs = std::filesystem;
  fs::path dir = testing::make_temp_dir("tessera-tuning");
  auto p = manufactured_poisson(2, 15, Centring::Vertex);
  SolverOptions o;
  o.tuning.mode = TuneMode::Explore;
  o.tuning.budget_s = 2;
  o.tuning.min_points = 1; // explore every level, even 1^2
  o.tuning.database = dir / "tuning.json";
  o.max_cycles = 3;
  std::vector<std::string> log;
  o.tuning.log = [&](const std::string& line) { log.push_back(line); };
  auto first = solve(p, o);
  REQUIRE(fs::exists(o.tuning.database));
  std::string text;
  {
    std::ifstream in(o.tuning.database);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  CHECK(text.find("tessera-tuning") != std::string::npos);
  // Operators whose exploration measured nothing within the budget are not stored.
  std::set<std::string> unmeasured;
  for (const auto& line : log)
    if (line.rfind("no variant of ", 0) == 0)
      unmeasured.insert(line.substr(14, line.find(' ', 14) - 14));
  CHECK(log.size() > 2 * unmeasured.size()); // some operator was explored and stored
  // A second solve takes every stored operator from the database and converges alike.
  log.clear();
  auto second = solve(p, o);
  for (const auto& line : log) {
    INFO(line);
    if (line.rfind("exploring ", 0) == 0)
      CHECK(unmeasured.count(line.substr(10, line.find(' ', 10) - 10)) == 1);
  }
  REQUIRE(second.cycles.size() == first.cycles.size());
  CHECK(std::abs(second.cycles.back().relative - first.cycles.back().relative) <
        1e-6 * first.cycles.back().relative);
  // A corrupted lowered program is dropped and explored again, never used.
  auto pos = text.find("\"lowered\"");
  REQUIRE(pos != std::string::npos);
  text.replace(pos, 9, "\"lowerex\"");
  std::ofstream(o.tuning.database) << text;
  log.clear();
  auto third = solve(p, o);
  CHECK_FALSE(log.empty());
  bool dropped = false;
  for (const auto& line : log)
    dropped |= line.find("dropped") != std::string::npos;
  CHECK(dropped);
  CHECK(third.cycles.back().relative ==
        doctest::Approx(first.cycles.back().relative).epsilon(1e-6));
  // A file that is not JSON at all is replaced.
  std::ofstream(o.tuning.database) << "not json";
  auto fourth = solve(p, o);
  CHECK(fourth.converged == first.converged);
}

// The explorer checks an operator's variants on a small copy of it (16^3 in 3-D): the transfers,
// built for two levels, must build there too (a 64^3 solve's interpolation from 32^3 was built
// at 16^3 into the 64^3 grid, an internal error).
TEST_CASE("multigrid tuning: the transfers explore at the explorer's small extents") {
  namespace fs = std::filesystem;
  fs::path dir = testing::make_temp_dir("tessera-tuning-small");
  auto p = manufactured_poisson(3, 64, Centring::Cell);
  SolverOptions o;
  o.tuning.mode = TuneMode::Explore;
  o.tuning.budget_s = 0.2;
  o.tuning.database = dir / "tuning.json";
  o.max_cycles = 2;
  o.cycle = CycleKind::F;    // full multigrid's interpolation too
  o.coarse_launch_side = 16; // not measured among sides, as exploring would
  // The transfers alone (TuningOptions::explore_only, solve --tune-operators): every other
  // operator takes the default lowering.
  o.tuning.explore_only = {"restrict", "prolong", "fmg-prolong"};
  std::set<std::string> explored;
  o.tuning.log = [&](const std::string& line) {
    if (line.rfind("exploring ", 0) == 0)
      explored.insert(line.substr(10, line.find(' ', 10) - 10));
  };
  auto r = solve(p, o);
  CHECK(explored == o.tuning.explore_only);
  auto plain = solve(p, SolverOptions{.cycle = CycleKind::F, .max_cycles = 2});
  REQUIRE(r.cycles.size() == plain.cycles.size());
  CHECK(r.cycles.back().relative == doctest::Approx(plain.cycles.back().relative).epsilon(1e-9));
}

// The scheme of an independent implementation (cell-centred, 2^d average, trilinear, V(2,2)),
// which measures 0.12 with red-black Gauss-Seidel and 0.27 with weighted Jacobi (omega 6/7).
TEST_CASE("multigrid solver: cell-centred 3-D Poisson, convergence factors and error from 32^3 "
          "to 128^3") {
  std::vector<double> gsrb, jacobi, errors;
  for (int64_t n : {32, 64, 128}) {
    auto p = manufactured_poisson(3, n, Centring::Cell);
    SolverOptions o;
    auto r = solve(p, o);
    CHECK(r.converged);
    gsrb.push_back(r.mean_factor());
    REQUIRE(r.max_error);
    errors.push_back(*r.max_error);
    o.smoother = SmootherKind::Jacobi;
    o.omega = 6.0 / 7.0;
    o.max_cycles = 30;
    auto j = solve(p, o);
    CHECK(j.converged);
    jacobi.push_back(j.mean_factor());
    MESSAGE(n << "^3: V(2,2) factor gsrb " << gsrb.back() << ", jacobi " << jacobi.back()
              << ", max error " << errors.back());
  }
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(gsrb[i] <= 0.13);
    CHECK(jacobi[i] <= 0.28);
    CHECK(std::abs(gsrb[i] - gsrb[0]) <= 0.02);
    CHECK(std::abs(jacobi[i] - jacobi[0]) <= 0.02);
  }
  // Second order: the error falls about 4x per halving of h.
  for (std::size_t i = 1; i < 3; ++i) {
    double ratio = errors[i - 1] / errors[i];
    CHECK(ratio >= 3.6);
    CHECK(ratio <= 4.4);
  }

  // One F(2,2)-cycle (full multigrid) at 128^3 comes within 1.5x of the discretisation error
  // (the error of the converged solution above).
  auto p = manufactured_poisson(3, 128, Centring::Cell);
  SolverOptions f;
  f.cycle = CycleKind::F;
  f.max_cycles = 1;
  auto one = solve(p, f);
  REQUIRE(one.max_error);
  MESSAGE("one F(2,2)-cycle at 128^3: error " << *one.max_error << ", discretisation error "
                                              << errors[2]);
  CHECK(*one.max_error <= 1.5 * errors[2]);
}

TEST_CASE("multigrid solver: the thesis's V-cycle 64^3 -> 32^3 -> 16^3 runs as one program") {
  auto p = manufactured_poisson(3, 64, Centring::Cell);
  SolverOptions o;
  o.pre = o.post = 3;
  o.coarsest = 16;
  o.max_cycles = 3;
  o.fused_gauss_seidel = false;         // the thesis's two half-sweep kernels a step
  o.fused_residual_restriction = false; // and its residual and restriction kernels
  o.coarse_launch_side = 0;             // and 16^3 coarsest level's own launches
  o.profile_kernels = true;             // each operator's time and launches
  auto r = solve(p, o);
  CHECK(r.levels.size() == 3);
  for (const char* op : {"smooth", "residual", "restrict", "prolong", "coarse solve"}) {
    CAPTURE(op);
    REQUIRE(r.breakdown.count(op) == 1);
    CHECK(r.breakdown.at(op).ms > 0);
  }
  // 3 cycles, 2 levels above the coarsest: per cycle 2 x (3 + 3) steps of two half-sweeps, one
  // launch each (on a CPU vectorized: Tuner::cpu_default).
  CHECK(r.breakdown.at("smooth").launches == 3 * 12 * 2);
  CHECK(r.cycles.back().relative < r.cycles.front().relative);
  // The fused red-black step: one launch a step, the same residual history.
  o.fused_gauss_seidel = true;
  auto fused = solve(p, o);
  CHECK(fused.breakdown.at("smooth").launches == 3 * 6 * 2);
  REQUIRE(fused.cycles.size() == r.cycles.size());
  for (std::size_t c = 0; c < r.cycles.size(); ++c)
    CHECK(fused.cycles[c].relative == doctest::Approx(r.cycles[c].relative).epsilon(1e-9));
}

TEST_CASE(
    "multigrid solver: the variable-coefficient Helmholtz problem converges at second order") {
  std::vector<double> errors;
  for (int64_t n : {16, 32}) {
    auto r = solve(manufactured_helmholtz(3, n), {});
    CHECK(r.converged);
    CHECK(r.mean_factor() < 0.15);
    REQUIRE(r.max_error);
    errors.push_back(*r.max_error);
  }
  CHECK(errors[0] / errors[1] > 3.5);
  auto mixed = SolverOptions{};
  mixed.precision = Precision::Mixed;
  auto r = solve(manufactured_helmholtz(2, 64), mixed);
  CHECK(r.converged);
}

TEST_CASE("multigrid solver: Problem{}'s clamp boundary that does not converge gives a hint; "
          "kernel builds are timed apart from the cycles") {
  static_assert(std::is_same_v<multigrid::Boundary, tessera::Boundary>);
  Problem p; // the default boundary: clamp (Neumann), singular for a source that does not sum to 0
  p.dims = 2;
  p.n = 16;
  p.rhs.assign(16 * 16, 1.0);
  SolverOptions o;
  o.max_cycles = 6;
  auto r = solve(p, o);
  CHECK_FALSE(r.converged);
  CHECK(r.hint.find("multigrid::dirichlet(problem.centring") != std::string::npos);
  CHECK(r.build_ms > 0);

  p.boundary = dirichlet(p.centring, ScalarKind::F64); // the hint's fix converges, with no hint
  o.max_cycles = 20;
  auto fixed = solve(p, o);
  CHECK(fixed.converged);
  CHECK(fixed.hint.empty());
}

// 33 vertices coarsen to 16, which does not coarsen: two levels, the coarse solve 8 sweeps on
// 16^2, and a factor near 0.7 a cycle. The hint says why and which sizes halve; 31 converges.
TEST_CASE("multigrid solver: a grid that stops coarsening early and does not converge gives a "
          "hint") {
  SolverOptions o;
  o.max_cycles = 4;
  auto stuck = solve(manufactured_poisson(2, 33, Centring::Vertex), o);
  CHECK_FALSE(stuck.converged);
  REQUIRE(stuck.levels.size() == 2);
  CHECK(stuck.hint.find("the levels stop at 16 points per side (16 vertices are not 2m+1)") !=
        std::string::npos);
  CHECK(stuck.hint.find("2^k - 1 vertices") != std::string::npos);
  o.max_cycles = 20;
  auto halving = solve(manufactured_poisson(2, 31, Centring::Vertex), o);
  CHECK(halving.converged);
  CHECK(halving.hint.empty());
  o.max_cycles = 2; // not converged, but the levels reach a small grid: no hint
  CHECK(solve(manufactured_poisson(2, 31, Centring::Vertex), o).hint.empty());
}

TEST_CASE("multigrid solver: the fixed boundary (a time step's, not a grid's) is refused with a "
          "clear error, for every smoother") {
  for (auto smoother : {SmootherKind::GaussSeidel, SmootherKind::Jacobi}) {
    Problem p;
    p.dims = 2;
    p.n = 16;
    p.rhs.assign(16 * 16, 1.0);
    p.boundary = Boundary::fixed();
    SolverOptions o;
    o.smoother = smoother;
    o.max_cycles = 2;
    CHECK_THROWS_WITH(solve(p, o), doctest::Contains("multigrid::dirichlet(problem.centring"));
  }
}

// PoCL parses and links a program in its build (about 0.1 s each) and compiles each kernel at its
// first launch: a schedule builds the kernels it launches that are not built yet as one program
// before its first run (Schedule::run), so a solve compiles a few programs, not one a kernel.
TEST_CASE("multigrid solver: a cycle's kernels are built as one program on PoCL") {
  runtime::Session session(runtime::Session::from_env()); // a build cache of its own
  const auto r = Solver(session, manufactured_poisson(3, 16, Centring::Cell),
                        SolverOptions{.coarse_launch_side = 4, .max_cycles = 2})
                     .solve();
  CHECK(r.cycles.size() == 2);
  const runtime::CacheStats stats = session.cache().stats();
  const std::size_t kernels = stats.memory_hits + stats.disk_hits + stats.compiled;
  MESSAGE(stats.compiled << " programs compiled, " << kernels << " programs asked for");
  if (session.device().is_pocl()) {
    CHECK(stats.memory_hits >= 8);
    CHECK(stats.compiled * 3 <= kernels);
  } else { // another driver builds each kernel alone
    CHECK(stats.compiled + stats.disk_hits >= 8);
  }
}
