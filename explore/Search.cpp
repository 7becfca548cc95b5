#include "explore/Search.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <set>

#include "core/Error.h"

namespace tessera::explore {

std::string to_string(Strategy strategy) {
  switch (strategy) {
  case Strategy::Exhaustive:
    return "exhaustive";
  case Strategy::Random:
    return "random";
  case Strategy::Halving:
    return "halving";
  }
  return "?";
}

Strategy parse_strategy(const std::string& name) {
  for (Strategy s : all_strategies())
    if (to_string(s) == name)
      return s;
  user_error(cat("unknown search strategy '", name, "': use exhaustive, random or halving"));
}

const std::vector<Strategy>& all_strategies() {
  static const std::vector<Strategy> all = {Strategy::Exhaustive, Strategy::Random,
                                            Strategy::Halving};
  return all;
}

namespace {

// Measures the point unless the deadline (less the evaluator's reserve) would pass or a stop
// was requested; returns whether it measured.
bool try_measure(Evaluator& ev, int point, int repeats, double deadline) {
  if (ev.stop_requested())
    return false;
  if (ev.now() + ev.estimate(point, repeats) > deadline - ev.reserve())
    return false;
  ev.measure(point, repeats);
  return true;
}

void ordered(Evaluator& ev, const std::vector<Point>& points, const SearchOptions& o,
             bool shuffle) {
  std::vector<int> order;
  for (int i = 1; i < static_cast<int>(points.size()); ++i)
    order.push_back(i);
  if (shuffle) {
    std::mt19937 rng(o.seed);
    std::shuffle(order.begin(), order.end(), rng);
  }
  ev.phase(shuffle ? "random order" : "space order");
  for (int p : order) {
    if (ev.stop_requested())
      return;
    if (!ev.measured(p))
      try_measure(ev, p, o.repeats, o.deadline_s);
  }
}

double median_of(const Evaluator& ev, int p) {
  auto r = ev.result(p);
  return r && r->ok ? r->median_ms : INFINITY;
}

constexpr std::size_t kFinalists = 8;

std::vector<int> fastest(const Evaluator& ev, std::size_t points, std::size_t count) {
  std::vector<int> ids;
  for (int i = 0; i < static_cast<int>(points); ++i)
    if (std::isfinite(median_of(ev, i)))
      ids.push_back(i);
  std::sort(ids.begin(), ids.end(),
            [&](int a, int b) { return median_of(ev, a) < median_of(ev, b); });
  if (ids.size() > count)
    ids.resize(count);
  return ids;
}

// Estimated cost of the final halving stage over the current finalists.
double finals_cost(const Evaluator& ev, std::size_t points, int repeats) {
  auto finalists = fastest(ev, points, kFinalists);
  if (finalists.empty())
    return 0;
  double cost = 0;
  std::size_t n = finalists.size();
  for (int r = std::min(2, repeats); n > 0; r = std::min(repeats, r * 2)) {
    cost += static_cast<double>(n) * ev.estimate(finalists[0], r);
    if (n == 1 && r >= repeats)
      break;
    n = n == 1 ? 1 : n / 2;
  }
  return cost;
}

void halving(Evaluator& ev, const std::vector<Point>& points, const SearchOptions& o) {
  std::map<int, std::vector<int>> by_variant;
  for (int i = 0; i < static_cast<int>(points.size()); ++i)
    by_variant[points[i].variant].push_back(i);
  std::vector<int> variants;
  for (const auto& [v, ps] : by_variant)
    if (v != points[0].variant)
      variants.push_back(v);
  std::mt19937 rng(o.seed);
  std::shuffle(variants.begin(), variants.end(), rng);
  const std::size_t n = points.size();

  // Stage 2 widens (a quarter, a half, all of the variants) when it has nothing left to try.
  std::size_t share = 4;
  for (bool progress = true; progress && !ev.stop_requested();) {
    progress = false;
    const double end = o.deadline_s - finals_cost(ev, n, o.repeats);
    // Stage 1: variants, each through its first point (the automatic work-group size when it
    // has one), one timed launch.
    ev.phase("variants");
    const double stage1_end =
        ev.now() + 0.6 * std::max(0.0, end - ev.reserve() - ev.now()) + ev.reserve();
    for (int v : variants) {
      int p = by_variant[v].front();
      if (!ev.measured(p) && try_measure(ev, p, 1, stage1_end))
        progress = true;
      if (ev.stop_requested())
        return;
    }
    // Stage 2: every point of the best quarter of the variants measured so far.
    std::vector<std::pair<double, int>> ranked;
    for (const auto& [v, ps] : by_variant) {
      double best = INFINITY;
      for (int p : ps)
        best = std::min(best, median_of(ev, p));
      if (std::isfinite(best))
        ranked.push_back({best, v});
    }
    std::sort(ranked.begin(), ranked.end());
    std::size_t keep = std::max<std::size_t>(1, (ranked.size() + share - 1) / share);
    ev.phase("work-group sizes");
    const double stage2_end = o.deadline_s - finals_cost(ev, n, o.repeats);
    bool stage2_progress = false;
    for (std::size_t i = 0; i < ranked.size() && i < keep; ++i)
      for (int p : by_variant[ranked[i].second]) {
        if (!ev.measured(p) && try_measure(ev, p, 1, stage2_end))
          stage2_progress = true;
        if (ev.stop_requested())
          return;
      }
    progress |= stage2_progress;
    if (!stage2_progress && share > 1) {
      share /= 2;
      progress = true;
    }
  }
  // Stage 3: successive halving of the fastest points with more and more launches.
  std::vector<int> candidates = fastest(ev, n, kFinalists);
  auto by_time = [&](int a, int b) { return median_of(ev, a) < median_of(ev, b); };
  int repeats = std::min(2, o.repeats);
  while (!candidates.empty()) {
    ev.phase(cat("halving ", candidates.size(), " x ", repeats));
    std::vector<int> timed;
    for (int p : candidates) {
      auto r = ev.result(p);
      if (r && r->repeats >= repeats) {
        timed.push_back(p);
        continue;
      }
      if (try_measure(ev, p, repeats, o.deadline_s))
        timed.push_back(p);
      if (ev.stop_requested())
        return;
    }
    std::erase_if(timed, [&](int p) { return !std::isfinite(median_of(ev, p)); });
    std::sort(timed.begin(), timed.end(), by_time);
    if (timed.empty())
      return;
    if (timed.size() == 1 && repeats >= o.repeats)
      return;
    if (timed.size() < candidates.size() && repeats >= o.repeats)
      return; // out of budget
    candidates.assign(timed.begin(),
                      timed.begin() +
                          static_cast<std::ptrdiff_t>(std::max<std::size_t>(1, timed.size() / 2)));
    repeats = std::min(o.repeats, repeats * 2);
  }
}

} // namespace

void search(Evaluator& ev, const std::vector<Point>& points, const SearchOptions& o) {
  if (points.empty())
    return;
  ev.phase("baseline");
  // The baseline always runs: it is the reference and the yardstick.
  if (!ev.measured(0) && !ev.stop_requested())
    ev.measure(0, o.repeats);
  switch (o.strategy) {
  case Strategy::Exhaustive:
    ordered(ev, points, o, false);
    break;
  case Strategy::Random:
    ordered(ev, points, o, true);
    break;
  case Strategy::Halving:
    halving(ev, points, o);
    break;
  }
}

namespace {

struct Reached {
  double t;
};
struct Impossible {
  std::string why;
};

// Replays recorded measurements. Points without a record are assumed not to reach the target
// (they are reported as failed) and to cost the mean of the recorded points.
class ReplayEvaluator : public Evaluator {
public:
  ReplayEvaluator(const Report& report, const std::vector<Point>& points, double start,
                  double target_ms, int warmup)
      : points_(points), now_(start), target_ms_(target_ms), warmup_(warmup) {
    double build_sum = 0, check_sum = 0, launch_sum = 0, overhead_sum = 0;
    int builds = 0, firsts = 0;
    for (const auto& p : report.points) {
      if (p.id < 0 || p.id >= static_cast<int>(points.size()))
        continue;
      records_[p.id] = &p;
      if (!p.kernel_hash.empty())
        build_of_hash_[p.kernel_hash] = std::max(build_of_hash_[p.kernel_hash], p.build_ms / 1e3);
      if (p.build_origin == "compiled") {
        build_sum += p.build_ms / 1e3;
        ++builds;
      }
      if (p.status == "ok") {
        check_sum += p.check_s;
        launch_sum += p.launch_s;
        overhead_sum += overhead(p);
        ++firsts;
        launch_of_variant_[p.variant] = p.launch_s;
        hash_of_variant_[p.variant] = p.kernel_hash;
      }
    }
    mean_build_ = builds ? build_sum / builds : 0.5;
    mean_check_ = firsts ? check_sum / firsts : 0.1;
    mean_launch_ = firsts ? launch_sum / firsts : 0.05;
    mean_overhead_ = firsts ? overhead_sum / firsts : 0.0;
  }

  double now() const override { return now_; }
  bool measured(int point) const override { return results_.count(point) != 0; }
  std::optional<Measurement> result(int point) const override {
    auto it = results_.find(point);
    if (it == results_.end())
      return std::nullopt;
    return it->second;
  }
  double estimate(int point, int repeats) const override { return cost(point, repeats); }
  Measurement measure(int point, int repeats) override {
    now_ += cost(point, repeats);
    Measurement m;
    auto it = records_.find(point);
    if (it == records_.end()) {
      ++unknown_used_;
    } else if (it->second->status == "ok") {
      m = {true, it->second->median_ms, repeats};
    }
    bool first = !results_.count(point);
    if (first) {
      auto rec = records_.find(point);
      std::string hash = rec != records_.end() ? rec->second->kernel_hash
                         : hash_of_variant_.count(points_[point].variant)
                             ? hash_of_variant_.at(points_[point].variant)
                             : "";
      if (!hash.empty())
        built_.insert(hash);
      else
        built_variants_.insert(points_[point].variant);
    }
    results_[point] = m;
    if (m.ok && m.median_ms <= target_ms_ * 1.05)
      throw Reached{now_};
    return m;
  }
  int unknown_used() const { return unknown_used_; }

private:
  static double overhead(const PointResult& p) {
    double parts = (p.build_origin == "compiled" ? p.build_ms / 1e3 : 0) + p.check_s +
                   p.launch_s * (p.repeats + 1);
    return std::max(0.0, p.cost_s - parts);
  }

  double cost(int point, int repeats) const {
    auto it = records_.find(point);
    bool first = !results_.count(point);
    int launches = warmup_ + repeats;
    if (it == records_.end()) {
      int v = points_[point].variant;
      double launch = launch_of_variant_.count(v) ? launch_of_variant_.at(v) : mean_launch_;
      if (!first)
        return launches * launch;
      bool built = (hash_of_variant_.count(v) && built_.count(hash_of_variant_.at(v))) ||
                   built_variants_.count(v);
      return (built ? 0 : mean_build_) + mean_check_ + mean_overhead_ + launches * launch;
    }
    const PointResult& p = *it->second;
    if (!first)
      return launches * p.launch_s;
    if (p.status != "ok")
      return p.cost_s;
    double build = built_.count(p.kernel_hash) ? 0.0 : build_of_hash_.at(p.kernel_hash);
    return build + p.check_s + overhead(p) + launches * p.launch_s;
  }

  const std::vector<Point>& points_;
  std::map<int, const PointResult*> records_;
  std::map<std::string, double> build_of_hash_;
  std::map<int, double> launch_of_variant_;
  std::map<int, std::string> hash_of_variant_;
  std::set<std::string> built_;
  std::set<int> built_variants_;
  std::map<int, Measurement> results_;
  double now_;
  double target_ms_;
  int warmup_;
  double mean_build_ = 0, mean_check_ = 0, mean_launch_ = 0, mean_overhead_ = 0;
  int unknown_used_ = 0;
};

} // namespace

std::optional<double> replay_time_to_target(const Report& report, const std::vector<Point>& points,
                                            const SearchOptions& options, double start_s,
                                            double target_ms, std::string* note) {
  ReplayEvaluator ev(report, points, start_s, target_ms, report.warmup);
  try {
    search(ev, points, options);
  } catch (const Reached& r) {
    if (note && ev.unknown_used() > 0)
      *note = cat(ev.unknown_used(), " unmeasured point(s) on the way assumed slower");
    return r.t;
  }
  if (note)
    *note = "not reached within the budget";
  return std::nullopt;
}

std::vector<StrategyResult> strategy_results(const Report& report, const std::vector<Point>& points,
                                             const SearchOptions& options, double start_s) {
  std::vector<StrategyResult> results;
  const PointResult* best = report.best ? report.find(*report.best) : nullptr;
  if (!best || best->status != "ok")
    return results;
  // A point is within 5% of the best when its final median is; a strategy got there when it
  // first measured such a point (single noisy launches do not count as getting there).
  double best_ms = best->median_ms;
  double target = best_ms * 1.05;
  {
    StrategyResult measured{report.strategy, std::nullopt, "measured", ""};
    for (const auto& t : report.trace) {
      const PointResult* p = report.find(t.point);
      if (p && p->status == "ok" && p->median_ms <= target) {
        measured.time_to_5pct_s = t.t_s;
        break;
      }
    }
    if (!measured.time_to_5pct_s)
      measured.note = "no measurement within 5% of the best";
    results.push_back(measured);
  }
  for (Strategy s : all_strategies()) {
    SearchOptions o = options;
    o.strategy = s;
    StrategyResult r{to_string(s), std::nullopt, "replayed", ""};
    if (s == Strategy::Random) {
      double sum = 0;
      int reached = 0, orders = 10;
      std::string note;
      for (int k = 0; k < orders; ++k) {
        o.seed = options.seed + 1000u * static_cast<uint32_t>(k);
        std::string n;
        if (auto t = replay_time_to_target(report, points, o, start_s, best_ms, &n)) {
          sum += *t;
          ++reached;
        }
      }
      if (reached > 0)
        r.time_to_5pct_s = sum / reached;
      r.note = cat("mean of the ", reached, " of ", orders, " random orders that got there");
    } else {
      r.time_to_5pct_s = replay_time_to_target(report, points, o, start_s, best_ms, &r.note);
    }
    results.push_back(r);
  }
  return results;
}

} // namespace tessera::explore
