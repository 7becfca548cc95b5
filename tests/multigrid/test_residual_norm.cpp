// The residual's norm from its square sums (residual_square_sums, helmholtz_residual_square_sums):
// the partial sums against the residual's squares summed by a loop here, under the interpreter
// and as a kernel on the test device, along both axes; and in the solver, the same residual
// histories as the norm of the stored residual.
#include <doctest/doctest.h>

#include <cmath>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "codegen/Kernel.h"
#include "compile/Execute.h"
#include "multigrid/Helmholtz.h"
#include "multigrid/Operators.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "tests/multigrid/GridData.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

Data random_level_data(const Level& level, uint32_t seed, double shift = 0) {
  return testing::mg::to_data(testing::mg::random_grid(level, seed, shift), level);
}

// The squares of `residual` (row-major over the level's sizes) summed in runs of `run` along
// `axis`, in the order of the program's result.
std::vector<double> square_sums_by_loop(const std::vector<double>& residual, const Level& level,
                                        SquareSumAxis axis, int64_t run) {
  const auto sizes = level.sizes();
  const int64_t outer = sizes.front(), inner = sizes.back(), columns = level.points() / outer;
  std::vector<double> sums(static_cast<std::size_t>(level.points() / run), 0.0);
  for (int64_t i = 0; i < level.points(); ++i) {
    const double r = residual[static_cast<std::size_t>(i)];
    // Outermost: element (z, rest) goes to sum (z / run, rest); innermost: (rows, x) to
    // (rows, x / run).
    const int64_t at = axis == SquareSumAxis::Outermost
                           ? (i / columns) / run * columns + i % columns
                           : (i / inner) * (inner / run) + (i % inner) / run;
    sums[static_cast<std::size_t>(at)] += r * r;
  }
  return sums;
}

void check_square_sums(const Expr& sums, const Expr& residual_op, const Level& level,
                       SquareSumAxis axis, const std::vector<Data>& inputs) {
  const int64_t run = square_sum_run(level, axis);
  REQUIRE(run > 0);
  const std::vector<double> expected =
      square_sums_by_loop(evaluate(residual_op, inputs).flatten(), level, axis, run);
  const double tolerance = level.kind == ScalarKind::F64 ? 1e-12 : 1e-5;
  const std::vector<double> a = evaluate(sums, inputs).flatten();
  codegen::Kernel code = codegen::generate_kernel(rewrite::lower_default(sums));
  INFO(code.source);
  const std::vector<double> b =
      explore::execute(testing::multigrid_session(), code, inputs).output.flatten();
  REQUIRE(a.size() == expected.size());
  REQUIRE(b.size() == expected.size());
  double scale = 0, interpreted = 0, kernel = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    scale = std::max(scale, expected[i]);
    interpreted = std::max(interpreted, std::abs(a[i] - expected[i]));
    kernel = std::max(kernel, std::abs(b[i] - expected[i]));
  }
  CHECK(scale > 1); // residuals of random data on these grids are large
  CHECK(interpreted <= tolerance * scale);
  CHECK(kernel <= tolerance * scale);
}

Level box_of(int dims, std::vector<int64_t> box, ScalarKind kind) {
  Level level{dims, box.back(), kind, Centring::Cell};
  level.box = std::move(box);
  return level;
}

// Whole columns and rows, and runs that divide the outermost axis several times (8 of 16 and
// 96), along
// both axes, through `boundaries`; the variable-coefficient residual on the cubes.
void check_levels(ScalarKind kind, const std::vector<Boundary>& boundaries) {
  const SquareSumAxis both[] = {SquareSumAxis::Outermost, SquareSumAxis::Innermost};
  std::vector<Level> levels{Level{2, 16, kind, Centring::Cell}, Level{3, 8, kind, Centring::Cell},
                            Level{2, 15, kind, Centring::Vertex}, box_of(3, {96, 4, 8}, kind)};
  for (const Level& level : levels)
    for (SquareSumAxis axis : both) {
      CAPTURE(level.describe());
      CAPTURE(static_cast<int>(axis));
      const Data u = random_level_data(level, 81), f = random_level_data(level, 82);
      for (Boundary bc : boundaries)
        check_square_sums(residual_square_sums(level, bc, axis), residual(level, bc), level, axis,
                          {u, f});
      if (!level.box.empty() || level.centring != Centring::Cell)
        continue;
      std::vector<Data> inputs{u, f, random_level_data(level, 83, 1.5)};
      for (int k = 0; k < level.dims; ++k)
        inputs.push_back(random_level_data(level, 84 + static_cast<uint32_t>(k), 1.5));
      const Boundary anti = Boundary::antisymmetric();
      for (HelmholtzCoefficients c :
           {HelmholtzCoefficients{0.7, 1.3}, HelmholtzCoefficients{0.7, 1.3, true, 1.25}})
        check_square_sums(helmholtz_residual_square_sums(level, anti, c, axis),
                          helmholtz_residual(level, anti, c), level, axis, inputs);
    }
}

} // namespace

TEST_CASE("the residual's square sums equal its squares summed by runs") {
  check_levels(ScalarKind::F64, {Boundary::antisymmetric(), Boundary::wrap()});
  CHECK(square_sum_run(box_of(3, {96, 4, 8}, ScalarKind::F64), SquareSumAxis::Outermost) == 8);
  CHECK(square_sum_run(box_of(3, {45, 4, 8}, ScalarKind::F64), SquareSumAxis::Outermost) == 9);
  CHECK(square_sum_run(Level{3, 15, ScalarKind::F64, Centring::Vertex}, SquareSumAxis::Outermost) ==
        15);
  CHECK(square_sum_run(Level{3, 64, ScalarKind::F64, Centring::Cell}, SquareSumAxis::Innermost) ==
        64);
  // No run of 8-64 divides 97, and 1-D grids have no square sums: the stored residual's norm.
  CHECK(square_sum_run(box_of(3, {97, 4, 8}, ScalarKind::F64), SquareSumAxis::Outermost) == 0);
  CHECK(square_sum_run(Level{1, 64, ScalarKind::F64, Centring::Cell}, SquareSumAxis::Innermost) ==
        0);
}

TEST_CASE("the residual's square sums in f32, and through a mirror" *
          doctest::test_suite("extended")) {
  check_levels(ScalarKind::F32, {Boundary::antisymmetric(), Boundary::mirror(), Boundary::wrap()});
  check_levels(ScalarKind::F64, {Boundary::mirror()});
}

TEST_CASE("the residual norm from square sums: the same residual histories as the stored "
          "residual's") {
  std::vector<std::pair<Problem, SolverOptions>> runs;
  runs.push_back({manufactured_poisson(3, 32, Centring::Cell), {}});
  runs.push_back({manufactured_poisson(2, 63, Centring::Vertex), {}});
  runs.back().second.cycle = CycleKind::F;
  runs.push_back({manufactured_helmholtz(3, 16), {}});
  runs.back().second.precision = Precision::F32;
  for (auto& [problem, options] : runs) {
    CAPTURE(problem.name);
    options.coarse_launch_side = 0; // the finest level of these small problems in its launches
    options.max_cycles = 5;
    options.profile_kernels = true; // the breakdown's labels
    options.fused_residual_norm = false;
    SolveResult stored = Solver(testing::multigrid_session(), problem, options).solve();
    options.fused_residual_norm = true;
    SolveResult r = Solver(testing::multigrid_session(), problem, options).solve();
    REQUIRE(r.cycles.size() == stored.cycles.size());
    REQUIRE(r.cycles.size() >= 3);
    const double tolerance = options.precision == Precision::F32 ? 1e-4 : 1e-12;
    for (std::size_t c = 0; c < r.cycles.size(); ++c)
      CHECK(std::abs(r.cycles[c].relative - stored.cycles[c].relative) <=
            tolerance * stored.cycles[c].relative);
    CHECK(r.breakdown.count("residual norm") == 1);
    CHECK(stored.breakdown.count("residual norm") == 0);
    // The residual's grid is neither written nor read by a norm: fewer bytes a cycle.
    CHECK(r.bytes_per_cycle.at("residual norm") < stored.bytes_per_cycle.at("residual"));
    // Where the residual is restricted in one kernel too (cell-centred grids), the finest level
    // has no residual grid: the memory of a grid less, but its square sums (at most 1/8 of it).
    const double grid = std::pow(static_cast<double>(problem.n), problem.dims) *
                        (options.precision == Precision::F32 ? 4 : 8);
    const double saved =
        static_cast<double>(stored.memory_bytes) - static_cast<double>(r.memory_bytes);
    if (problem.centring == Centring::Cell) {
      CHECK(saved >= 0.875 * grid);
      CHECK(saved < grid);
    } else {
      CHECK(saved < 0); // the square sums' buffer beside the grid
    }
  }
}
