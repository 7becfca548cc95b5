// The limits of the enumeration and the lowering (core/WorkLimits.h, issue 30): one deadline and
// one cancel flag for both, polled inside the lowering's strategies, and a stop reason; an
// enumeration at an absurd depth ends with its stop reason instead of running without end.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "rewrite/Lower.h"
#include "rewrite/Variants.h"
#include "stencils/Iterated.h"
#include "tessera/tessera.h"
#include "tests/Helpers.h"
#include "tests/TimeBounds.h"

using namespace tessera;
using tessera::testing::has;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// 64 fused steps of a radius-2 3-D stencil: each lowering takes about a second (issue 30: 91 of
// them ran 69 s past a 1 s deadline).
Expr steps64() {
  return stencils::iterated_stencil("j3d13pt", {8, 8, 8}, 64);
}

} // namespace

TEST_CASE("limits: the lowering of 64 fused steps keeps the deadline") {
  rewrite::EnumerateOptions options; // no generation check: as the explorer's lazy space
  options.depth = 1;
  options.deadline_seconds = 1;
  auto start = Clock::now();
  auto lowered = rewrite::lowered_variants(steps64(), options);
  double took = seconds_since(start);
  CHECK(lowered.stop == StopReason::Deadline);
  CHECK(lowered.not_lowered > 0);
  CHECK(has(lowered.summary(), "cut by the deadline: "));
  CHECK(!lowered.variants.empty()); // the program itself is always lowered (the baseline)
  CHECK(took < testing::within(8)); // the deadline and the baseline's lowering, on a loaded machine
}

TEST_CASE("limits: the cancel flag stops the lowering within a second") {
  std::atomic<bool> cancel{false};
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.cancel = &cancel;
  Clock::time_point cancelled;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    cancelled = Clock::now();
    cancel = true;
  });
  auto lowered = rewrite::lowered_variants(steps64(), options);
  canceller.join();
  double after = seconds_since(cancelled);
  CHECK(lowered.stop == StopReason::Interrupted);
  CHECK(has(lowered.summary(), "cut by an interrupt"));
  CHECK(after < 3);
}

TEST_CASE("limits: enumerate_variants at depth 99 ends at the variant limit and says so") {
  // Before: it ran without end (the space grows without bound: tiles of tiles ...).
  auto add3 = user_fun("add3", [](auto a, auto b, auto c) { return a + 2.0 * b - c; });
  Val x = input("x", Type::array(f32(), 64));
  Expr p = program({x}, x | pad(1, 1, clamp) | slide(3, 1) |
                            map([&](Val w) { return add3(w.at(0), w.at(1), w.at(2)); }));
  auto start = Clock::now();
  VariantList list = enumerate_variants(p, 99);
  CHECK(list.stop == StopReason::Limit);
  CHECK(has(list.summary, "10000 variants (depth "));
  CHECK(has(list.summary, "stopped at the variant limit during depth "));
  CHECK(list.variants.size() > 1000);
  CHECK(seconds_since(start) < testing::within(120)); // about 15 s on an idle 2-core machine
  // A caller's own limits: a lower variant limit, or a deadline.
  rewrite::EnumerateOptions control;
  control.limit = 50;
  CHECK(enumerate_variants(p, 99, control).stop == StopReason::Limit);
  control.limit = 10000;
  control.deadline_seconds = 0.5;
  start = Clock::now();
  CHECK(enumerate_variants(p, 99, control).stop == StopReason::Deadline);
  CHECK(seconds_since(start) < testing::within(5));
}

TEST_CASE("limits: the deepest real programs are far below the nesting limit") {
  Expr p = steps64(); // the most steps the command line fuses: 209 nodes deep, lowered too
  INFO("height ", p->height);
  CHECK(p->height < kMaxExprDepth / 2);
  Expr lowered = rewrite::lower_default(p);
  INFO("lowered ", lowered->height);
  CHECK(lowered->height < kMaxExprDepth / 2);
}
