// The learning strategy: a bandit over variant families whose arms are valued by a cost model
// refitted after every measurement (explore/FeatureModel.h).
//
// 1. The prior's first variants (the tuning database's winners, explore/Prior.h), each through
//    its preferred point.
// 2. Then, while the budget lasts, the untried variant with the highest
//      predicted log-speedup (the model, seeded by the database, updated with every point of
//      this run) + kExploration * sqrt(ln(1 + variants tried) / (1 + variants tried in its
//      family)),
//    so that a family that did well is exploited through its other parameters and a family not
//    tried yet still gets its turn. Ties go to the prior's order.
// 3. Whenever a point becomes the fastest so far, the other work-group sizes of its variant.
// 4. The final re-timing of halving (its time kept free from the start).
#include <cmath>
#include <map>
#include <set>

#include "explore/Search.h"
#include "explore/SearchSteps.h"

namespace tessera::explore {

namespace {

constexpr std::size_t kWarmStart = 4;
constexpr double kExploration = 0.3;

class Bandit {
public:
  Bandit(Evaluator& ev, SearchSpace& space, const SearchOptions& o)
      : ev_(ev), space_(space), o_(o), model_(space.model()) {}

  void run() {
    learn(0);
    best_ms_ = steps::median_of(ev_, 0);
    ev_.phase("bandit: prior's first");
    const auto& order = space_.prior_order();
    for (std::size_t i = 0; i < order.size() && i < kWarmStart; ++i)
      if (!visit(order[i]))
        break;
    ev_.phase("bandit");
    while (!ev_.stop_requested()) {
      int v = choose();
      if (v < 0 || !visit(v))
        break;
    }
    steps::final_halving(ev_, space_, o_);
  }

private:
  double deadline() const { return o_.deadline_s - steps::finals_cost(ev_, space_, o_.repeats); }

  void learn(int point) {
    auto r = ev_.result(point);
    double base = steps::median_of(ev_, 0);
    double speedup =
        r && r->ok && std::isfinite(base) && r->median_ms > 0 ? base / r->median_ms : 0.0;
    model_.add(space_.point_words(point), speedup);
  }

  // Measures the point with one launch; true when it became the fastest so far.
  bool measure(int point) {
    if (ev_.measured(point) || !steps::try_measure(ev_, point, 1, deadline()))
      return false;
    learn(point);
    double ms = steps::median_of(ev_, point);
    if (ms < best_ms_) {
      best_ms_ = ms;
      return true;
    }
    return false;
  }

  // Tries the variant; false when the budget has no room for it.
  bool visit(int v) {
    const std::vector<int>* points = steps::points_within(ev_, space_, v, deadline());
    if (!points)
      return false;
    tried_.insert(v);
    ++pulls_[space_.family_of(v)];
    if (points->empty())
      return true;
    const bool fresh = !ev_.measured(points->front());
    if (fresh && !steps::try_measure(ev_, points->front(), 1, deadline()))
      return false;
    if (fresh)
      learn(points->front());
    double ms = steps::median_of(ev_, points->front());
    if (ms < best_ms_) {
      best_ms_ = ms;
      // A new best: its other work-group sizes (they share its kernel).
      for (std::size_t i = 1; i < points->size(); ++i)
        measure((*points)[i]);
    }
    return true;
  }

  int choose() const {
    double total = static_cast<double>(tried_.size());
    int best = -1;
    double best_score = -INFINITY;
    for (int v : space_.prior_order()) {
      if (tried_.count(v))
        continue;
      auto n = pulls_.find(space_.family_of(v));
      double pulls = n == pulls_.end() ? 0.0 : static_cast<double>(n->second);
      double score = model_.predict(space_.variant_words(v)) +
                     kExploration * std::sqrt(std::log(1 + total) / (1 + pulls));
      if (score > best_score) {
        best_score = score;
        best = v;
      }
    }
    return best;
  }

  Evaluator& ev_;
  SearchSpace& space_;
  const SearchOptions& o_;
  FeatureModel model_;
  std::set<int> tried_;
  std::map<std::string, int> pulls_;
  double best_ms_ = INFINITY;
};

} // namespace

void bandit(Evaluator& ev, SearchSpace& space, const SearchOptions& o) {
  Bandit(ev, space, o).run();
}

} // namespace tessera::explore
