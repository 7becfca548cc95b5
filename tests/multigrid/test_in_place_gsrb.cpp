// Red-black half-sweeps in place (codegen::CodegenOptions::in_place): the kernel launched with
// its output buffer the solution's own, against the out-of-place program under the interpreter,
// and the solver's residual histories in place and out of place.
#include <doctest/doctest.h>

#include <cmath>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "codegen/Kernel.h"
#include "multigrid/Helmholtz.h"
#include "multigrid/Hierarchy.h"
#include "multigrid/Hpgmg.h"
#include "multigrid/Layout.h"
#include "multigrid/Operators.h"
#include "multigrid/Problems.h"
#include "multigrid/Program.h"
#include "multigrid/Solver.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "tests/multigrid/GridData.h"

using namespace tessera;
using namespace tessera::multigrid;
using tessera::testing::mg::random_grid;

namespace {

std::vector<double> download(const DeviceMemory& memory, BufferId id) {
  const auto count = static_cast<std::size_t>(memory.count(id));
  if (memory.kind(id) == ScalarKind::F64) {
    std::vector<double> values(count);
    memory.buffer(id).read(values.data(), count * sizeof(double));
    return values;
  }
  std::vector<float> narrow(count);
  memory.buffer(id).read(narrow.data(), count * sizeof(float));
  return {narrow.begin(), narrow.end()};
}

// The program's kernel generated in place, launched with u as its output, against the same
// program's kernel out of place (equal to the bit) and under the interpreter (to rounding: the
// device may contract a * b + c); `grids` are u, f and the coefficients.
void check_in_place(const Expr& program, const Level& level,
                    const std::vector<std::vector<double>>& grids) {
  const Expr lowered = rewrite::lower_default(program);
  codegen::CodegenOptions options;
  options.in_place = true;
  codegen::Kernel code = codegen::generate_kernel(lowered, options);
  if (auto* collected = testing::collected_kernels()) {
    collected->push_back(code);
    collected->push_back(codegen::generate_kernel(lowered));
    return;
  }
  INFO(code.source);
  CHECK(code.in_place);
  // u and out alias: neither is restrict (on compilers that keep restrict: not PoCL's).
  CHECK(code.source.find("* restrict u") == std::string::npos);
  CHECK(code.source.find("* restrict out") == std::string::npos);
  CHECK(code.source.find("* restrict f") != std::string::npos);
  CHECK(code.source.find("!= changed") != std::string::npos);
  auto& session = testing::multigrid_session();
  DeviceMemory memory(session);
  const auto [buffers, inputs] = testing::mg::upload(memory, level, grids);
  const BufferId apart = memory.allocate("out of place", level.kind, level.points());
  Schedule s;
  s.launch("out of place", compile(session, codegen::generate_kernel(lowered), {}, "apart"),
           buffers, apart);
  s.launch("in place", compile(session, code, {}, "in place"), buffers, buffers[0]);
  s.run(memory);
  const std::vector<double> expected = evaluate(program, inputs).flatten();
  const std::vector<double> got = download(memory, buffers[0]);
  const std::vector<double> reference = download(memory, apart);
  REQUIRE(got.size() == expected.size());
  const double tolerance = level.kind == ScalarKind::F64 ? 1e-12 : 2e-5;
  std::size_t changed = 0, differ = 0;
  double scale = 1, error = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    changed += expected[i] != grids[0][i];
    differ += got[i] != reference[i];
    scale = std::max(scale, std::abs(expected[i]));
    error = std::max(error, std::abs(got[i] - expected[i]));
  }
  CHECK(changed > 0);
  CHECK(differ == 0);
  CHECK(error <= tolerance * scale);
}

} // namespace

namespace {

void check_in_place_half_sweeps(ScalarKind kind) {
  for (int d = 1; d <= 3; ++d)
    for (int colour : {0, 1}) {
      Level level{d, d == 3 ? 6 : 10, kind, Centring::Cell};
      CAPTURE(level.describe());
      CAPTURE(colour);
      auto u = random_grid(level, 61), f = random_grid(level, 62);
      for (Boundary bc : {Boundary::antisymmetric(), Boundary::mirror(), Boundary::wrap()})
        check_in_place(gsrb_half_sweep(level, bc, colour), level, {u, f});
      std::vector<std::vector<double>> grids{u, f, random_grid(level, 63, 1.5)};
      for (int k = 0; k < d; ++k)
        grids.push_back(random_grid(level, 64 + static_cast<uint32_t>(k), 1.5));
      const Boundary anti = Boundary::antisymmetric();
      check_in_place(helmholtz_gsrb_half_sweep(level, anti, {0.7, 1.3}, colour), level, grids);
      check_in_place(helmholtz_gsrb_half_sweep(level, anti, {0.7, 1.3, true, 1.25}, colour), level,
                     grids);
    }
}

} // namespace

TEST_CASE("in-place red-black half-sweeps equal the out-of-place ones (interpreter, PoCL)") {
  testing::with_kernels_built_together([] { check_in_place_half_sweeps(ScalarKind::F64); });
}

// The extended tier (CMakeLists.txt): the same kernels in single precision.
TEST_CASE("in-place red-black half-sweeps equal the out-of-place ones in f32" *
          doctest::test_suite("extended")) {
  testing::with_kernels_built_together([] { check_in_place_half_sweeps(ScalarKind::F32); });
}

namespace {

// Each run solved with out-of-place and with in-place half-sweeps.
void check_in_place_solves(std::vector<std::pair<Problem, SolverOptions>> runs) {
  for (auto& [problem, options] : runs) {
    CAPTURE(problem.name);
    options.coarse_launch_side = 0; // every smoothing step its own launch (the bytes below)
    options.gauss_seidel_storage = HalfSweepStorage::OutOfPlace;
    Solver apart(testing::multigrid_session(), problem, options);
    SolveResult out_of_place = apart.solve();
    options.gauss_seidel_storage = HalfSweepStorage::InPlace;
    Solver in_place(testing::multigrid_session(), problem, options);
    SolveResult r = in_place.solve();
    CHECK(r.converged);
    REQUIRE(r.cycles.size() == out_of_place.cycles.size());
    for (std::size_t c = 0; c < r.cycles.size(); ++c)
      CHECK(std::abs(r.cycles[c].relative - out_of_place.cycles[c].relative) <=
            1e-12 * out_of_place.cycles[c].relative);
    bool marked = false;
    for (const auto& k : r.kernels)
      marked |= k.find("in place") != std::string::npos;
    CHECK(marked);
    // A half-sweep reads u and f and writes half of u: 2.5 grids instead of 3 (Poisson).
    CHECK(r.bytes_per_cycle.at("smooth") < out_of_place.bytes_per_cycle.at("smooth"));
  }
}

} // namespace

TEST_CASE("in-place red-black Gauss-Seidel: the solver's residual histories equal the "
          "out-of-place ones; the smoother moves fewer bytes") {
  std::vector<std::pair<Problem, SolverOptions>> runs;
  runs.push_back({manufactured_poisson(3, 32, Centring::Cell), {}});
  runs.push_back({hpgmg_fv_problem(16, 2), {}});
  runs.back().second.cycle = CycleKind::F;
  runs.back().second.pre = runs.back().second.post = 3;
  check_in_place_solves(std::move(runs));
}

// The extended tier (CMakeLists.txt): a W-cycle in 2-D and the variable-coefficient operator.
TEST_CASE("in-place red-black Gauss-Seidel: W-cycles in 2-D and the Helmholtz operator" *
          doctest::test_suite("extended")) {
  std::vector<std::pair<Problem, SolverOptions>> runs;
  runs.push_back({manufactured_poisson(2, 64, Centring::Cell), {}});
  runs.back().second.cycle = CycleKind::W;
  runs.push_back({manufactured_helmholtz(3, 16), {}});
  check_in_place_solves(std::move(runs));
}

// In place where asked for alone: on an H200 the out-of-place half-sweeps smoothed a 512^3
// V(2,2) cycle in 8.33 ms against 9.32 in place, and on PoCL the out-of-place ones take 4 results
// a work-item in vector registers (Tuner::cpu_default; BENCHMARKS.md); explored, named or
// distributed half-sweeps stay out of place.
TEST_CASE("in-place red-black half-sweeps: where asked for, on one device") {
  SolverOptions o;
  CHECK_FALSE(in_place_half_sweeps(o, false)); // Auto
  o.gauss_seidel_storage = HalfSweepStorage::InPlace;
  CHECK(in_place_half_sweeps(o, false));
  CHECK_FALSE(in_place_half_sweeps(o, true)); // a rank's box
  o.tuning.mode = TuneMode::Explore;
  CHECK_FALSE(in_place_half_sweeps(o, false));
  o.tuning.mode = TuneMode::Default;
  o.gauss_seidel_storage = HalfSweepStorage::OutOfPlace;
  CHECK_FALSE(in_place_half_sweeps(o, false));
}
