// Replays of a finished exploration: each strategy run again on the recorded points and costs,
// to compare how fast each gets within 5% of the best (see explore/Search.h).
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/Error.h"
#include "explore/Search.h"

namespace tessera::explore {

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
      if (p.status == PointStatus::Ok) {
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
    } else if (it->second->status == PointStatus::Ok) {
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
    if (p.status != PointStatus::Ok)
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

std::optional<double> replay_time_to_target(const Report& report, const SpaceSnapshot& snapshot,
                                            const SearchOptions& options, double start_s,
                                            double target_ms, std::string* note) {
  if (snapshot.points.empty())
    return std::nullopt;
  StaticSpace space(snapshot);
  ReplayEvaluator ev(report, snapshot.points, start_s, target_ms, report.warmup);
  try {
    search(ev, space, options);
  } catch (const Reached& r) {
    if (note && ev.unknown_used() > 0)
      *note = cat(ev.unknown_used(), " unmeasured point(s) on the way assumed slower");
    return r.t;
  }
  if (note)
    *note = "not reached within the budget";
  return std::nullopt;
}

std::vector<StrategyResult> strategy_results(const Report& report, const SpaceSnapshot& points,
                                             const SearchOptions& options, double start_s) {
  std::vector<StrategyResult> results;
  const PointResult* best = report.best ? report.find(*report.best) : nullptr;
  if (!best || best->status != PointStatus::Ok)
    return results;
  // A point is within 5% of the best when its final median is; a strategy got there when it
  // first measured such a point (single noisy launches do not count as getting there).
  double best_ms = best->median_ms;
  double target = best_ms * 1.05;
  {
    StrategyResult measured{report.strategy, std::nullopt, "measured", ""};
    for (const auto& t : report.trace) {
      const PointResult* p = report.find(t.point);
      if (p && p->status == PointStatus::Ok && p->median_ms <= target) {
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
