// The solver with --fused-smoothing (SolverOptions::fused_smoothing): a level's pre- and
// post-smoothing steps as one stream-temporal kernel each, on PoCL, against the unfused solver:
// the same residual history to rounding, and fewer launches.
#include <doctest/doctest.h>

#include "DeviceSession.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

// The unfused and the fused solve of `p` with `o`; their residual histories must agree.
std::pair<SolveResult, SolveResult> both(const Problem& p, SolverOptions o) {
  o.fused_smoothing = false;
  SolveResult plain = Solver(testing::multigrid_session(), p, o).solve();
  o.fused_smoothing = true;
  SolveResult fused = Solver(testing::multigrid_session(), p, o).solve();
  REQUIRE(plain.cycles.size() == fused.cycles.size());
  for (std::size_t c = 0; c < plain.cycles.size(); ++c) {
    CAPTURE(c);
    CHECK(fused.cycles[c].relative == doctest::Approx(plain.cycles[c].relative).epsilon(1e-9));
  }
  CHECK(plain.cycles.back().relative < 0.1 * plain.cycles.front().relative); // it converges
  return {plain, fused};
}

} // namespace

TEST_CASE("fused smoothing: 3-D Gauss-Seidel V(2,2) has the unfused residual history") {
  SolverOptions o;
  o.max_cycles = 4;
  o.tolerance = 1e-14;
  o.coarse_launch_side = 0; // every level's smoothing its own launches, counted below
  o.profile_kernels = true; // the breakdown counts them
  auto [plain, fused] = both(manufactured_poisson(3, 32, Centring::Cell), o);
  // Levels 32, 16, 8, 4, 2: the first two fuse their 2 + 2 steps into two launches; the
  // others launch a red and a black half-sweep a step.
  CHECK(plain.breakdown.at("smooth").launches == 4 * 4 * (2 + 2) * 2);
  CHECK(fused.breakdown.at("smooth").launches == 4 * (2 * 2 + 2 * (2 + 2) * 2));
}

TEST_CASE("fused smoothing: 2-D weighted Jacobi V(3,1), an odd count and a single step") {
  SolverOptions o;
  o.smoother = SmootherKind::Jacobi;
  o.pre = 3;
  o.post = 1; // one step: nothing to fuse, separate on every level
  o.max_cycles = 3;
  o.tolerance = 1e-14;
  o.coarse_launch_side = 0; // every level's smoothing its own launches, counted below
  o.profile_kernels = true; // the breakdown counts them
  auto [plain, fused] = both(manufactured_poisson(2, 64, Centring::Cell), o);
  // Levels 64, 32, 16 fuse their 3 pre-smoothing steps into one launch each.
  const int levels = 5; // 64 .. 4 above the coarsest (2)
  CHECK(plain.breakdown.at("smooth").launches == 3 * levels * (3 + 1));
  CHECK(fused.breakdown.at("smooth").launches == 3 * (3 * (1 + 1) + (levels - 3) * (3 + 1)));
}
