// Search strategies against a synthetic evaluator: deadlines, orders, successive halving, and
// the replay that compares strategies.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/Error.h"
#include "explore/Search.h"
#include "explore/SearchSteps.h"

using namespace tessera;
using namespace tessera::explore;

namespace {

// Points with fixed medians and costs; time advances by the cost of what is measured.
struct FakeEvaluator : Evaluator {
  std::vector<double> medians; // per point; infinity: the point fails
  std::vector<double> build_s; // cost of the first measurement besides its launches
  double launch_s = 0.01;
  double t = 0;
  int stop_after = -1; // stop once this many first measurements were made
  std::map<int, Measurement> results;
  std::vector<int> first_order;           // points in order of first measurement
  std::vector<std::pair<int, int>> calls; // (point, repeats)
  bool ahead = false;                     // builds_ahead()
  std::vector<std::vector<int>> handed;   // build_ahead's calls
  int handed_measured = 0;                // points handed measured already
  int measured_unhanded = 0;              // first measurements of points never handed

  double now() const override { return t; }
  bool measured(int p) const override { return results.count(p) != 0; }
  std::optional<Measurement> result(int p) const override {
    auto it = results.find(p);
    if (it == results.end())
      return std::nullopt;
    return it->second;
  }
  double estimate(int p, int repeats) const override {
    return (measured(p) ? 0.0 : build_s[static_cast<std::size_t>(p)]) + (1 + repeats) * launch_s;
  }
  Measurement measure(int p, int repeats) override {
    t += estimate(p, repeats);
    if (!measured(p)) {
      first_order.push_back(p);
      bool was_handed = false;
      for (const auto& call : handed)
        was_handed |= std::find(call.begin(), call.end(), p) != call.end();
      measured_unhanded += ahead && p != 0 && !was_handed;
    }
    calls.push_back({p, repeats});
    double m = medians[static_cast<std::size_t>(p)];
    results[p] = std::isfinite(m) ? Measurement{true, m, repeats} : Measurement{false, 0, repeats};
    return results[p];
  }
  bool builds_ahead() const override { return ahead; }
  void build_ahead(const std::vector<int>& points) override {
    for (int p : points)
      handed_measured += measured(p);
    handed.push_back(points);
  }
  bool stop_requested() const override {
    return stop_after >= 0 && static_cast<int>(first_order.size()) >= stop_after;
  }
};

// 10 variants x 4 work-group sizes; the fastest point is variant 7, size 2.
std::vector<Point> grid_points() {
  std::vector<Point> points;
  for (int v = 0; v < 10; ++v) {
    points.push_back({v, {}});
    for (int64_t l : {32, 64, 128})
      points.push_back({v, {l}});
  }
  return points;
}

FakeEvaluator grid_evaluator(const std::vector<Point>& points) {
  FakeEvaluator ev;
  for (const auto& p : points) {
    double variant_speed = 10.0 - (p.variant == 7 ? 6.0 : p.variant % 5);
    double local = p.local.empty() ? 1.0 : p.local[0] == 64 ? 0.7 : 1.1;
    ev.medians.push_back(variant_speed * local);
    ev.build_s.push_back(p.local.empty() ? 0.5 : 0.05); // later sizes of a variant are cheap
  }
  ev.medians[5] = INFINITY; // a failing point
  return ev;
}

int fastest(const std::vector<double>& medians) {
  int best = 0;
  for (int i = 0; i < static_cast<int>(medians.size()); ++i)
    if (medians[static_cast<std::size_t>(i)] < medians[static_cast<std::size_t>(best)])
      best = i;
  return best;
}

} // namespace

TEST_CASE("search: strategy names parse and unknown ones are errors") {
  for (Strategy s : all_strategies())
    CHECK(parse_strategy(to_string(s)) == s);
  CHECK_THROWS_WITH_AS(parse_strategy("annealing"),
                       doctest::Contains("exhaustive, random, halving or bandit"), Error);
}

TEST_CASE("search: exhaustive measures the baseline first, then every point in order") {
  auto points = grid_points();
  auto ev = grid_evaluator(points);
  search(ev, points, {Strategy::Exhaustive, 1000, 5, 1});
  REQUIRE(ev.first_order.size() == points.size());
  for (int i = 0; i < static_cast<int>(points.size()); ++i)
    CHECK(ev.first_order[static_cast<std::size_t>(i)] == i);
  for (const auto& [p, r] : ev.calls)
    CHECK(r == 5);
}

TEST_CASE("search: no strategy starts a point that would end after the deadline") {
  auto points = grid_points();
  for (Strategy s : all_strategies()) {
    CAPTURE(to_string(s));
    auto ev = grid_evaluator(points);
    search(ev, points, {s, 4.0, 5, 3});
    CHECK(ev.t <= 4.0);
    CHECK(ev.first_order.front() == 0);
    CHECK(ev.first_order.size() < points.size());
    CHECK(ev.first_order.size() >= 5);
  }
}

TEST_CASE("search: random sampling visits the points in a seeded random order") {
  auto points = grid_points();
  auto a = grid_evaluator(points), b = grid_evaluator(points), c = grid_evaluator(points);
  search(a, points, {Strategy::Random, 1000, 5, 7});
  search(b, points, {Strategy::Random, 1000, 5, 7});
  search(c, points, {Strategy::Random, 1000, 5, 8});
  CHECK(a.first_order.size() == points.size());
  CHECK(a.first_order == b.first_order);
  CHECK(a.first_order != c.first_order);
  CHECK(a.first_order.front() == 0);
  std::set<int> distinct(a.first_order.begin(), a.first_order.end());
  CHECK(distinct.size() == points.size());
}

TEST_CASE("search: successive halving finds the best point with part of the budget") {
  auto points = grid_points();
  auto ev = grid_evaluator(points);
  int best = fastest(ev.medians);
  // Enough for every variant once and some work-group sizes, not for everything.
  search(ev, points, {Strategy::Halving, 9.0, 5, 1});
  CHECK(ev.t <= 9.0);
  REQUIRE(ev.result(best));
  // The winner ends fully timed; the variants were all tried before the sizes.
  CHECK(ev.result(best)->repeats == 5);
  std::set<int> variants_seen;
  for (int p : ev.first_order)
    variants_seen.insert(points[static_cast<std::size_t>(p)].variant);
  CHECK(variants_seen.size() == 10);
  int fully_timed = 0;
  for (const auto& [p, m] : ev.results)
    fully_timed += m.ok && m.repeats >= 5;
  CHECK(fully_timed <= 3); // the baseline and the finalists, not everything
}

// Evaluator::build_ahead (PoCL builds those kernels as one program): halving hands it the first
// points of the next variants, 8 at a time in stage 1, then each variant's other sizes.
TEST_CASE("search: halving hands the points it measures next to build_ahead, none measured") {
  auto points = grid_points();
  auto ev = grid_evaluator(points);
  ev.ahead = true;
  search(ev, points, {Strategy::Halving, 1000, 5, 1});
  CHECK(ev.first_order.size() == points.size());
  REQUIRE(!ev.handed.empty());
  // Stage 1: the first points of 8 variants (the baseline's, point 0, is measured already).
  REQUIRE(ev.handed.front().size() == steps::kBuildAhead - 1);
  for (int p : ev.handed.front())
    CHECK(points[static_cast<std::size_t>(p)].local.empty());
  CHECK(ev.handed_measured == 0);
  CHECK(ev.measured_unhanded == 0);    // every point but the baseline was handed before
  auto plain = grid_evaluator(points); // an evaluator that does not build ahead is not asked
  search(plain, points, {Strategy::Halving, 1000, 5, 1});
  CHECK(plain.handed.empty());
  CHECK(plain.first_order == ev.first_order);
}

TEST_CASE("search: successive halving uses the budget it has") {
  auto points = grid_points();
  auto ev = grid_evaluator(points);
  search(ev, points, {Strategy::Halving, 1000, 5, 1});
  CHECK(ev.first_order.size() == points.size()); // widened to every variant's sizes
}

TEST_CASE("search: a stop request ends the search after the current point") {
  auto points = grid_points();
  auto ev = grid_evaluator(points);
  ev.stop_after = 3;
  search(ev, points, {Strategy::Exhaustive, 1000, 5, 1});
  CHECK(ev.first_order.size() == 3);
}

TEST_CASE("search: replays charge each point its recorded cost") {
  auto points = grid_points();
  Report report;
  report.warmup = 1;
  for (int i = 0; i < static_cast<int>(points.size()); ++i) {
    PointResult p;
    p.id = i;
    p.variant = points[static_cast<std::size_t>(i)].variant;
    p.kernel_hash = cat("h", p.variant); // sizes of a variant share a kernel
    p.status = PointStatus::Ok;
    p.median_ms = i == 9 ? 1.0 : 10.0;
    p.repeats = 5;
    p.launch_s = 0.1;
    p.check_s = 0.2;
    p.build_ms = points[static_cast<std::size_t>(i)].local.empty() ? 1000 : 0;
    p.build_origin = p.build_ms > 0 ? "compiled" : "memory cache";
    p.cost_s = p.build_ms / 1e3 + p.check_s + 6 * p.launch_s;
    report.points.push_back(p);
  }
  std::string note;
  auto t = replay_time_to_target(report, SpaceSnapshot{points}, {Strategy::Exhaustive, 1000, 5, 1},
                                 0.0, 1.0, &note);
  REQUIRE(t);
  // Points 0..9: three kernels built (variants 0, 1, 2), ten checks, ten times 6 launches.
  CHECK(*t == doctest::Approx(3 * 1.0 + 10 * 0.2 + 10 * 0.6));
  auto none = replay_time_to_target(report, SpaceSnapshot{points},
                                    {Strategy::Exhaustive, 2.0, 5, 1}, 0.0, 1.0, &note);
  CHECK_FALSE(none);
  CHECK(note.find("not reached") != std::string::npos);

  report.best = 9;
  report.strategy = "exhaustive";
  report.trace = {{1.5, 0, 10.0, 5}, {4.0, 9, 1.0, 5}};
  auto results =
      strategy_results(report, SpaceSnapshot{points}, {Strategy::Exhaustive, 1000, 5, 1}, 0.0);
  REQUIRE(results.size() == 5);
  CHECK(results[0].how == "measured");
  CHECK(results[0].time_to_5pct_s == doctest::Approx(4.0));
  for (std::size_t i = 1; i < results.size(); ++i) {
    CHECK(results[i].how == "replayed");
    CHECK(results[i].time_to_5pct_s.has_value());
  }
}
