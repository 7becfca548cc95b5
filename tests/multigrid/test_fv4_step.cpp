// HPGMG-FV's 4th-order red-black step with its interior in one pass (multigrid/Fv4Step.h): the
// red half-sweep around the interior, the pass, the black half-sweep around the interior,
// against the two half-sweeps launched as the solver otherwise runs them (equal to the bit) and
// the interpreter (to rounding), on an odd grid, tiles and segments that do and do not divide
// the interior, both colours first; the shell grid and the output start as NaN, so a point read
// before it is written, or never written, fails. The solver's histories with and without it.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "DeviceSession.h"
#include "codegen/Kernel.h"
#include "multigrid/Fv4Step.h"
#include "multigrid/Helmholtz.h"
#include "multigrid/HelmholtzFv4.h"
#include "multigrid/Hpgmg.h"
#include "multigrid/Layout.h"
#include "multigrid/Solver.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "runtime/Session.h"
#include "tests/multigrid/GridData.h"

using namespace tessera;
using namespace tessera::multigrid;
using tessera::testing::mg::random_grid;

namespace {

const HelmholtzCoefficients kCoefficients{0.7, 1.3, true, 1.25, 4};

// A half-sweep of `colour` as the solver builds it on a large grid: the whole form's kernel
// around its interior form's, 2 cells in.
std::shared_ptr<CompiledKernel> split_half_sweep(const Level& level, int colour) {
  auto& session = testing::multigrid_session();
  const Expr whole =
      helmholtz_gsrb_half_sweep(level, Boundary::antisymmetric(), kCoefficients, colour);
  auto k = compile(session, codegen::generate_kernel(rewrite::lower_default(whole)), {}, "whole");
  codegen::CodegenOptions options;
  options.interior_only = true;
  const codegen::Kernel interior = codegen::generate_kernel(
      rewrite::lower_default(multigrid::detail::fv4_gsrb_half_sweep(
          level, kCoefficients, colour, {multigrid::detail::Fv4Region::Interior})),
      options);
  REQUIRE(interior.interior_margin == multigrid::detail::kFv4InteriorMargin);
  k->interior = compile(session, interior, {}, "interior");
  k->interior_margin = multigrid::detail::kFv4InteriorMargin;
  return k;
}

// u, f, alpha and three betas near 1.5 (positive, as smooth coefficients: the diagonal stays
// away from zero).
std::vector<std::vector<double>> random_grids(const Level& level) {
  std::vector<std::vector<double>> grids;
  for (uint32_t i = 0; i < 6; ++i)
    grids.push_back(random_grid(level, 91 + i, i >= 2 ? 1.5 : 0));
  for (std::size_t i = 3; i < 6; ++i)
    for (auto& x : grids[i])
      x = 1.5 + 0.25 * (x - 1.5);
  return grids;
}

void fill_nan(DeviceMemory& memory, BufferId id, const Level& level) {
  write_values(memory, id,
               std::vector<double>(static_cast<std::size_t>(level.points()),
                                   std::numeric_limits<double>::quiet_NaN()));
}

void check_step(const Level& level, int first, const std::vector<Fv4StepShape>& shapes) {
  CAPTURE(level.describe());
  CAPTURE(first);
  auto& session = testing::multigrid_session();
  const auto red = split_half_sweep(level, first), black = split_half_sweep(level, 1 - first);
  REQUIRE(fv4_step_why_not(level, *red, *black) == "");
  const auto grids = random_grids(level);
  DeviceMemory memory(session);
  auto [inputs, data] = testing::mg::upload(memory, level, grids);
  const BufferId between = memory.allocate("between", level.kind, level.points());
  const BufferId apart = memory.allocate("apart", level.kind, level.points());
  const BufferId shell = memory.allocate("shell", level.kind, level.points());
  const BufferId out = memory.allocate("out", level.kind, level.points());

  Schedule half_sweeps;
  std::vector<BufferId> from = inputs;
  half_sweeps.launch("red", red, from, between);
  from[0] = between;
  half_sweeps.launch("black", black, from, apart);
  half_sweeps.run(memory);
  const std::vector<double> expected = read_values(memory, apart);

  const Boundary bc = Boundary::antisymmetric();
  data[0] = evaluate(helmholtz_gsrb_half_sweep(level, bc, kCoefficients, first), data);
  data[0] = evaluate(helmholtz_gsrb_half_sweep(level, bc, kCoefficients, 1 - first), data);
  const std::vector<double> reference = data[0].flatten();
  std::size_t changed = 0;
  double error = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    changed += expected[i] != grids[0][i];
    error = std::max(error, std::abs(expected[i] - reference[i]) / (1 + std::abs(reference[i])));
  }
  CHECK(changed > expected.size() * 9 / 10);
  CHECK(error <= 1e-12);

  for (const Fv4StepShape& shape : shapes) {
    CAPTURE(shape.tile_x);
    CAPTURE(shape.tile_y);
    CAPTURE(shape.group);
    CAPTURE(shape.segments);
    fill_nan(memory, shell, level);
    fill_nan(memory, out, level);
    Schedule step;
    std::vector<BufferId> buffers = inputs;
    step.launch_around_interior("red", red, buffers, shell);
    buffers.push_back(shell);
    buffers.push_back(out);
    step.launch_over("pass", fv4_step_kernel(session, *red, level, first, shape), buffers, 0);
    from = inputs;
    from[0] = shell;
    step.launch_around_interior("black", black, from, out);
    step.run(memory);
    const std::vector<double> got = read_values(memory, out);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      differ += !(got[i] == expected[i]); // NaN differs
    CHECK(differ == 0);
  }
}

} // namespace

TEST_CASE("fv4 step: the interior in one pass equals the two half-sweeps to the bit") {
  const Level level{3, 13, ScalarKind::F64, Centring::Cell}; // an interior of 9: odd
  // Tiles that divide neither the interior's rows nor its planes, a group that divides neither
  // its red points nor its pairs, the CPU's and the GPU's shapes (wider than the interior).
  check_step(level, 0,
             {{.tile_x = 4, .tile_y = 2, .group = 8, .segments = 3},
              {.tile_x = 6, .tile_y = 3, .group = 5, .segments = 2},
              {.tile_x = 32, .tile_y = 16, .group = 128, .segments = 1}});
  check_step(level, 1, {{.tile_x = 16, .tile_y = 4, .group = 32, .segments = 4}});
}

TEST_CASE("fv4 step: where it does not apply") {
  const Level level{3, 13, ScalarKind::F64, Centring::Cell};
  auto& session = testing::multigrid_session();
  const Expr whole = helmholtz_gsrb_half_sweep(level, Boundary::antisymmetric(), kCoefficients, 0);
  const auto plain =
      compile(session, codegen::generate_kernel(rewrite::lower_default(whole)), {}, "plain");
  CHECK(fv4_step_why_not(level, *plain, *plain) ==
        "the half-sweep plain has no interior form 2 cells in");
  CHECK(fv4_step_why_not(Level{2, 13, ScalarKind::F64, Centring::Cell}, *plain, *plain) ==
        "the one-pass step is written for 3-D grids, not 2-D");
  CHECK(fv4_step_why_not(Level{3, 6, ScalarKind::F64, Centring::Cell}, *plain, *plain) ==
        "a grid of 6 cells a side (the one-pass step needs 8 or more)");
  Level box = level;
  box.box = {13, 13, 7};
  CHECK(fv4_step_why_not(box, *plain, *plain) == "a rank's box of a distributed grid");
}

// The extended tier (CMakeLists.txt): the solver's path, about 2 min of PoCL's code generation
// on a cold cache (its kernels split at 16^3).
TEST_CASE("fv4 step: HPGMG-FV's 4th-order cycles are the half-sweeps' to the bit" *
          doctest::test_suite("extended")) {
  std::vector<SolveResult> runs;
  for (auto storage : {HalfSweepStorage::OutOfPlace, HalfSweepStorage::Wavefront}) {
    SolverOptions o;
    o.cycle = CycleKind::V;
    o.pre = o.post = 3;
    o.max_cycles = 2;
    o.tolerance = 1e-30;
    o.gauss_seidel_storage = storage;
    o.wavefront_side = 16;
    o.tuning.split_min_points = 16 * 16 * 16; // the finest level's operators split
    Solver solver(testing::multigrid_session(), hpgmg_fv_problem(16, 4), o);
    runs.push_back(solver.solve());
  }
  REQUIRE(runs[0].cycles.size() == 2);
  REQUIRE(runs[1].cycles.size() == 2);
  CHECK(runs[0].kernels.front().find("one pass") == std::string::npos);
  CHECK(runs[1].kernels.front().find("one pass a step") != std::string::npos);
  for (std::size_t c = 0; c < 2; ++c)
    CHECK(runs[1].cycles[c].residual == runs[0].cycles[c].residual);
  CHECK(runs[1].cycles[1].residual < 0.1 * runs[1].cycles[0].residual);
  CHECK(runs[1].solution == runs[0].solution);
}
