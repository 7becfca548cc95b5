// The coarse levels as one launch (multigrid/CoarseCycle.h): a cycle's schedule with its small
// steps fused against the same schedule launched step by step, on random data (every buffer of
// every level compared), and the solver's residual histories with and without it across the
// problems, smoothers, cycles and both grid kinds.
#include <doctest/doctest.h>

#include <cmath>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "codegen/Kernel.h"
#include "dsl/Dsl.h"
#include "multigrid/Anisotropic.h"
#include "multigrid/CoarseCycle.h"
#include "multigrid/Hierarchy.h"
#include "multigrid/Hpgmg.h"
#include "multigrid/Layout.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

std::vector<BufferId> level_buffers(Hierarchy& h) {
  std::vector<BufferId> all;
  for (const LevelState& L : h.levels()) {
    all.insert(all.end(), {L.u[0], L.u[1], L.f, L.r});
    all.insert(all.end(), L.coefficients.begin(), L.coefficients.end());
  }
  return all;
}

std::vector<double> download(const DeviceMemory& memory, BufferId id) {
  const auto count = static_cast<std::size_t>(memory.count(id));
  std::vector<double> values(count);
  if (memory.kind(id) == ScalarKind::F64) {
    memory.buffer(id).read(values.data(), count * sizeof(double));
    return values;
  }
  std::vector<float> narrow(count);
  memory.buffer(id).read(narrow.data(), count * sizeof(float));
  return {narrow.begin(), narrow.end()};
}

struct CycleCase {
  std::string name;
  Level finest;
  Boundary bc;
  std::optional<HelmholtzCoefficients> helmholtz;
  SolverOptions options;
};

// One cycle (and the finest residual) from random values in every buffer, step by step and with
// every step fused (the whole cycle on small grids), every buffer afterwards compared.
void check_fused_cycle(const CycleCase& c) {
  CAPTURE(c.name);
  auto& session = testing::multigrid_session();
  DeviceMemory memory(session);
  Tuner tuner(session, c.options.tuning);
  Hierarchy h(c.finest, c.bc, c.helmholtz, c.options, memory, tuner);
  Schedule s;
  if (c.options.cycle == CycleKind::F)
    h.full_multigrid(s);
  else
    h.cycle(s, 0, c.options.cycle);
  h.residual(s, 0);
  const std::vector<BufferId> buffers = level_buffers(h);
  std::vector<std::vector<double>> start;
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    // Coefficients positive (1 to 2), the rest around zero.
    auto v = testing::random_values(static_cast<std::size_t>(memory.count(buffers[b])),
                                    100 + static_cast<uint32_t>(b));
    start.push_back(v);
    write_values(memory, buffers[b], v);
  }
  s.run(memory);
  std::vector<std::vector<double>> separate;
  for (BufferId b : buffers)
    separate.push_back(download(memory, b));
  for (std::size_t b = 0; b < buffers.size(); ++b)
    write_values(memory, buffers[b], start[b]);
  CoarseCycle coarse(session, c.finest.points());
  Schedule fused = coarse.fuse(s, memory);
  CHECK(coarse.why_not() == "");
  CHECK(coarse.fused_runs() == 1);
  CHECK(fused.size() == 1); // every step on buffers of at most the finest grid's points
  CHECK(coarse.fused_steps() == static_cast<int>(s.size()));
  fused.run(memory);
  const double tolerance = c.finest.kind == ScalarKind::F64 ? 1e-12 : 1e-5;
  std::size_t changed = 0;
  for (std::size_t b = 0; b < buffers.size(); ++b) {
    CAPTURE(memory.name(buffers[b]));
    const auto got = download(memory, buffers[b]);
    double scale = 1, error = 0;
    for (std::size_t i = 0; i < got.size(); ++i) {
      changed += separate[b][i] != start[b][i];
      scale = std::max(scale, std::abs(separate[b][i]));
      error = std::max(error, std::abs(got[i] - separate[b][i]));
    }
    CHECK(error <= tolerance * scale);
  }
  CHECK(changed > 0);
}

// The solver with every step its own launch and with the levels of at most `side` per side in
// one: the same residual history (to 1e-12); returns the second's result.
SolveResult compare_launches(const Problem& problem, SolverOptions options, int64_t side) {
  CAPTURE(problem.name);
  CAPTURE(problem.n);
  options.profile_kernels = true; // the breakdown's launches
  options.coarse_launch_side = 0;
  Solver apart(testing::multigrid_session(), problem, options);
  SolveResult separate = apart.solve();
  CHECK(separate.coarse_launch.find("separate launches") != std::string::npos);
  CHECK(separate.breakdown.count("coarse levels") == 0);
  options.coarse_launch_side = side;
  Solver one(testing::multigrid_session(), problem, options);
  SolveResult r = one.solve();
  CHECK(r.converged == separate.converged);
  CHECK(r.coarse_launch.find("steps on buffers of at most") != std::string::npos);
  // One launch a V-cycle; the first F-cycle and a W-cycle visit the small levels more often.
  REQUIRE(r.breakdown.count("coarse levels") == 1);
  const auto cycles = static_cast<int64_t>(r.cycles.size());
  if (options.cycle == CycleKind::V)
    CHECK(r.breakdown.at("coarse levels").launches == cycles);
  CHECK(r.breakdown.at("coarse levels").launches >= cycles);
  REQUIRE(r.cycles.size() == separate.cycles.size());
  for (std::size_t c = 0; c < r.cycles.size(); ++c)
    CHECK(std::abs(r.cycles[c].relative - separate.cycles[c].relative) <=
          1e-12 * separate.cycles[c].relative);
  return r;
}

SolverOptions with(CycleKind cycle, SmootherKind smoother = SmootherKind::GaussSeidel) {
  SolverOptions o;
  o.cycle = cycle;
  o.smoother = smoother;
  return o;
}

std::vector<CycleCase> random_cycle_cases() {
  const HelmholtzCoefficients helmholtz{0.7, 1.3};
  std::vector<CycleCase> cases{
      {"poisson3d cell V",
       {3, 8, ScalarKind::F64, Centring::Cell},
       dirichlet(Centring::Cell, ScalarKind::F64),
       std::nullopt,
       with(CycleKind::V)},
      {"poisson3d vertex W",
       {3, 7, ScalarKind::F64, Centring::Vertex},
       dirichlet(Centring::Vertex, ScalarKind::F64),
       std::nullopt,
       with(CycleKind::W)},
      {"poisson2d cell F jacobi",
       {2, 16, ScalarKind::F64, Centring::Cell},
       dirichlet(Centring::Cell, ScalarKind::F64),
       std::nullopt,
       with(CycleKind::F, SmootherKind::Jacobi)},
      {"poisson1d vertex f32 V",
       {1, 31, ScalarKind::F32, Centring::Vertex},
       Boundary::clamp(),
       std::nullopt,
       with(CycleKind::V)},
      {"helmholtz3d cell F",
       {3, 8, ScalarKind::F64, Centring::Cell},
       dirichlet(Centring::Cell, ScalarKind::F64),
       helmholtz,
       with(CycleKind::F)},
      {"helmholtz2d line-y V",
       {2, 16, ScalarKind::F64, Centring::Cell},
       dirichlet(Centring::Cell, ScalarKind::F64),
       helmholtz,
       with(CycleKind::V, SmootherKind::LineY)},
      {"poisson2d periodic V",
       {2, 16, ScalarKind::F64, Centring::Cell},
       Boundary::wrap(),
       std::nullopt,
       with(CycleKind::V)},
  };
  cases.push_back(cases[0]);
  cases.back().name = "poisson3d cell V, out of place, residual apart";
  cases.back().options.gauss_seidel_storage = HalfSweepStorage::OutOfPlace;
  cases.back().options.fused_residual_restriction = false;
  return cases;
}

// The cases of random_cycle_cases the default tier runs: 3-D, 2-D and Helmholtz, three cycles.
bool in_default_tier(const std::string& name) {
  return name == "poisson3d cell V" || name == "poisson2d cell F jacobi" ||
         name == "helmholtz3d cell F";
}

} // namespace

TEST_CASE("the coarse levels in one launch: every buffer equals the separate launches' after a "
          "cycle from random values (PoCL)") {
  for (const auto& c : random_cycle_cases())
    if (in_default_tier(c.name))
      check_fused_cycle(c);
}

// The extended tier (CMakeLists.txt): the other grids, boundaries, precisions and smoothers.
TEST_CASE("the coarse levels in one launch: the other cycles equal the separate launches' too" *
          doctest::test_suite("extended")) {
  for (const auto& c : random_cycle_cases())
    if (!in_default_tier(c.name))
      check_fused_cycle(c);
}

TEST_CASE("a run whose one launch would exceed the source limit keeps its launches, and says "
          "why") {
  runtime::Session& session = testing::multigrid_session();
  DeviceMemory memory(session);
  SolverOptions options = with(CycleKind::V);
  Tuner tuner(session, options.tuning);
  const Level finest{2, 16, ScalarKind::F64, Centring::Cell};
  Hierarchy h(finest, dirichlet(Centring::Cell, ScalarKind::F64), std::nullopt, options, memory,
              tuner);
  Schedule s;
  h.cycle(s, 0, CycleKind::V);
  CoarseCycle within(session, finest.points());
  CHECK(within.fuse(s, memory).size() == 1);
  CoarseCycle limited(session, finest.points(), 4096);
  const Schedule kept = limited.fuse(s, memory);
  CHECK(kept.size() == s.size());
  CHECK(limited.fused_runs() == 0);
  CHECK(limited.why_not().find("KiB of OpenCL, over the 4 KiB") != std::string::npos);
}

TEST_CASE("a kernel of work-groups is not called as a point function") {
  const int64_t n = 24;
  Val x = input("x", Type::array(f32(), n));
  auto sum3 = [](Val nbh) {
    return nbh | reduce_seq(add_fun(), 0.0f) | map_seq(to_global(id_fun()));
  };
  // Overlapped tiles staged in local memory: its work-items share what they read.
  Expr tiled =
      program({x}, x | pad(1, 1, clamp) | slide(8, 6) | map_wrg(0, [&](Val tile) {
                     return tile | to_local(map_lcl(0, id_fun())) | slide(3, 1) | map_lcl(0, sum3);
                   }) | join());
  CHECK(point_function_why_not(codegen::generate_kernel(tiled)).find("work-groups") !=
        std::string::npos);
  Expr plain = program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map_glb(0, sum3));
  CHECK(point_function_why_not(codegen::generate_kernel(plain)) == "");
}

namespace {

std::vector<std::pair<Problem, SolverOptions>> history_runs() {
  std::vector<std::pair<Problem, SolverOptions>> runs;
  runs.push_back({manufactured_poisson(3, 16, Centring::Cell), with(CycleKind::V)});
  runs.push_back({manufactured_poisson(3, 15, Centring::Vertex), with(CycleKind::F)});
  runs.push_back({manufactured_poisson(2, 32, Centring::Cell), with(CycleKind::W)});
  runs.push_back(
      {manufactured_poisson(2, 31, Centring::Vertex), with(CycleKind::V, SmootherKind::Jacobi)});
  runs.push_back({manufactured_poisson(1, 63, Centring::Vertex), with(CycleKind::V)});
  runs.push_back({manufactured_helmholtz(3, 16), with(CycleKind::F)});
  runs.push_back({anisotropic_poisson(2, 32, 0.01), with(CycleKind::V, SmootherKind::LineY)});
  runs.push_back({hpgmg_fv_problem(16, 2), with(CycleKind::F)});
  runs.back().second.pre = runs.back().second.post = 3;
  runs.push_back({manufactured_poisson(3, 16, Centring::Cell), with(CycleKind::V)});
  runs.back().second.precision = Precision::Mixed;
  return runs;
}

} // namespace

TEST_CASE("the solver's residual histories with the one-launch coarse levels equal those of "
          "separate launches (3-D V, 2-D vertex-centred Jacobi, HPGMG's F-cycle)") {
  auto runs = history_runs();
  for (std::size_t i : {0, 3, 7})
    compare_launches(runs[i].first, runs[i].second, 4);
}

// The extended tier (CMakeLists.txt): the other centrings, cycles, smoothers and precisions.
TEST_CASE("the solver's residual histories with the one-launch coarse levels equal those of "
          "separate launches (the other problems)" *
          doctest::test_suite("extended")) {
  auto runs = history_runs();
  for (std::size_t i : {1, 2, 4, 5, 6, 8})
    compare_launches(runs[i].first, runs[i].second, 4);
}

TEST_CASE("a fused smoother's kernel of work-groups stays apart; the levels below it still run "
          "in one launch") {
  SolverOptions options;
  options.fused_smoothing = true; // 16^3 and larger: stream-temporal kernels of work-groups
  const SolveResult r = compare_launches(manufactured_poisson(3, 32, Centring::Cell), options, 16);
  CHECK(r.coarse_launch.find("apart: kernel") != std::string::npos);
  CHECK(r.coarse_launch.find("works in work-groups") != std::string::npos);
}
