// The coarse-grid correction fused with the first half-sweep after it (prolong_add_half_sweep):
// one program against the linear interpolation added to u followed by the half-sweep, under the
// interpreter and as a kernel on PoCL; where it is not offered, and why; and in the solver's
// cycle (residual histories equal to the unfused cycle's).
#include <doctest/doctest.h>

#include <cmath>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "codegen/Kernel.h"
#include "compile/Execute.h"
#include "multigrid/Operators.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

Data grid_data(const Level& level, uint32_t seed) {
  auto v = testing::random_values(static_cast<std::size_t>(level.points()), seed);
  if (level.kind == ScalarKind::F32)
    for (auto& x : v)
      x = static_cast<float>(x);
  return Data::from_flat(level.kind, std::vector<int64_t>(level.dims, level.n), v);
}

// The fused program of `coarse`'s correction and the half-sweep of `colour` against the two
// programs in turn (interpreted), interpreted and as a kernel on the test device.
void check_fused(const Level& coarse, Boundary bc, int colour) {
  if (auto* collected = testing::collected_kernels()) {
    collected->push_back(codegen::generate_kernel(
        rewrite::lower_default(prolong_add_half_sweep(coarse, bc, colour))));
    return;
  }
  const Level fine = [&] {
    Level l = coarse;
    l.n = 2 * coarse.n;
    return l;
  }();
  const Data u = grid_data(fine, 81), e = grid_data(coarse, 82), f = grid_data(fine, 83);
  const Data corrected = evaluate(prolong_add(coarse, Interpolation::Linear, bc), {u, e});
  const std::vector<double> expected =
      evaluate(gsrb_half_sweep(fine, bc, colour), {corrected, f}).flatten();
  const Expr fused = prolong_add_half_sweep(coarse, bc, colour);
  const std::vector<double> interpreted = evaluate(fused, {u, e, f}).flatten();
  codegen::Kernel code = codegen::generate_kernel(rewrite::lower_default(fused));
  INFO(code.source);
  const std::vector<double> kernel =
      explore::execute(testing::multigrid_session(), code, {u, e, f}).output.flatten();
  REQUIRE(interpreted.size() == expected.size());
  REQUIRE(kernel.size() == expected.size());
  // Random values in [-1, 1] and h^2 f small: the values are of order 1, and both colours'
  // points differ from u (corrected, or smoothed).
  const double tolerance = fine.kind == ScalarKind::F64 ? 1e-13 : 1e-5;
  double worst_interpreted = 0, worst_kernel = 0;
  std::size_t unchanged = 0;
  const std::vector<double> before = u.flatten();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    worst_interpreted = std::max(worst_interpreted, std::abs(interpreted[i] - expected[i]));
    worst_kernel = std::max(worst_kernel, std::abs(kernel[i] - expected[i]));
    unchanged += expected[i] == before[i];
  }
  CHECK(unchanged == 0);
  CHECK(worst_interpreted <= tolerance);
  CHECK(worst_kernel <= tolerance);
}

} // namespace

TEST_CASE("the correction fused with a half-sweep equals the correction then the half-sweep") {
  testing::with_kernels_built_together([] {
    for (int d = 1; d <= 3; ++d)
      for (Boundary bc :
           {Boundary::antisymmetric(), Boundary::mirror(), Boundary::wrap(), Boundary::clamp()})
        for (int colour : {0, 1}) {
          Level coarse{d, d == 3 ? 4 : 8, ScalarKind::F64, Centring::Cell};
          CAPTURE(coarse.describe());
          CAPTURE(bc.kind);
          CAPTURE(colour);
          check_fused(coarse, bc, colour);
        }
    Level odd{2, 5, ScalarKind::F32, Centring::Cell}; // odd coarse sides, f32
    check_fused(odd, Boundary::antisymmetric(), 0);
  });
}

TEST_CASE("the correction fused with a half-sweep: where it is not offered, and why") {
  Level vertex{2, 7, ScalarKind::F64, Centring::Vertex};
  CHECK(prolong_add_half_sweep_why_not(vertex, Boundary::mirror()).find("cell-centred") !=
        std::string::npos);
  Level cell{2, 8, ScalarKind::F64, Centring::Cell};
  CHECK(prolong_add_half_sweep_why_not(cell,
                                       Boundary::constant(ScalarValue::make(ScalarKind::F64, 0.0)))
            .find("boundary") != std::string::npos);
  CHECK(prolong_add_half_sweep_why_not(cell, Boundary::mirror()).empty());
  Level box = cell;
  box.box = {10, 6};
  box.halo_lo = box.halo_hi = {1, 1};
  CHECK(prolong_add_half_sweep_why_not(box, Boundary::mirror()).find("whole grids") !=
        std::string::npos);
  CHECK_THROWS_WITH_AS(prolong_add_half_sweep(vertex, Boundary::mirror(), 0),
                       doctest::Contains("cell-centred"), Error);
  CHECK_THROWS_WITH_AS(prolong_add_half_sweep(cell, Boundary::mirror(), 2),
                       doctest::Contains("colour"), Error);
}

namespace {

// The cycle of `problem` with the fused kernel where the half-sweeps run out of place: the
// residual histories of the separate kernels, fewer bytes moved for the correction and its
// half-sweep.
void check_cycle(const Problem& problem, SolverOptions options) {
  options.gauss_seidel_storage = HalfSweepStorage::OutOfPlace;
  options.coarse_launch_side = 0; // every level's kernels apart
  options.profile_kernels = true;
  options.max_cycles = 6;
  Solver apart(testing::multigrid_session(), problem, options);
  SolveResult separate = apart.solve();
  options.fused_correction = true;
  Solver together(testing::multigrid_session(), problem, options);
  SolveResult fused = together.solve();
  REQUIRE(fused.cycles.size() == separate.cycles.size());
  CHECK(separate.cycles.back().relative < 1e-4); // it converges
  // Equal to 1e-12 relative, or to 1e-15 of ||f|| once the residual nears rounding: the two
  // forms round differently (each fine point's correction summed in another order), and a
  // difference of the solution's last bits is a larger share of a smaller residual.
  for (std::size_t c = 0; c < fused.cycles.size(); ++c) {
    CAPTURE(c);
    CHECK(std::abs(fused.cycles[c].relative - separate.cycles[c].relative) <=
          1e-12 * separate.cycles[c].relative + 1e-15);
  }
  REQUIRE(fused.breakdown.count("prolong+smooth") == 1);
  CHECK(separate.breakdown.count("prolong+smooth") == 0);
  CHECK(fused.breakdown.count("prolong") == 0); // every level above the coarsest fuses
  const double fused_bytes =
      fused.bytes_per_cycle.at("prolong+smooth") + fused.bytes_per_cycle.at("smooth");
  const double separate_bytes =
      separate.bytes_per_cycle.at("prolong") + separate.bytes_per_cycle.at("smooth");
  CHECK(fused_bytes < separate_bytes);
}

} // namespace

TEST_CASE("the correction fused with a half-sweep in the cycle: the same residual histories") {
  check_cycle(manufactured_poisson(3, 32, Centring::Cell), {});
  // In place (a CPU's default) the fused kernel does not apply: the cycle keeps two kernels.
  SolverOptions in_place{.fused_correction = true, .max_cycles = 2};
  in_place.gauss_seidel_storage = HalfSweepStorage::InPlace;
  in_place.coarse_launch_side = 0;
  in_place.profile_kernels = true;
  SolveResult r =
      Solver(testing::multigrid_session(), manufactured_poisson(3, 16, Centring::Cell), in_place)
          .solve();
  CHECK(r.breakdown.count("prolong+smooth") == 0);
  CHECK(r.breakdown.count("prolong") == 1);
}

// The extended tier (CMakeLists.txt): a 2-D W-cycle whose one post-smoothing step is the fused
// kernel and the black half-sweep.
TEST_CASE("the correction fused with a half-sweep in a 2-D W-cycle of one post-smoothing step" *
          doctest::test_suite("extended")) {
  SolverOptions w;
  w.cycle = CycleKind::W;
  w.post = 1;
  check_cycle(manufactured_poisson(2, 64, Centring::Cell), w);
}
