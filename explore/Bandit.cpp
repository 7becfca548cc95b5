// The learning strategy: a bandit over rule families (arms: the rules a variant applied) valued
// by a cost model
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
//    The other work-group sizes of the variants tried are candidates too (an arm of their own,
//    scored by the model through their "local=..." words).
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
// The arm of the other work-group sizes of variants tried already.
const std::string kSizesArm = "work-group sizes";

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
      Choice c = choose();
      if (c.id < 0)
        break;
      if (c.is_point) {
        ++pulls_[kSizesArm];
        if (!steps::try_measure(ev_, c.id, 1, deadline()))
          break;
        learn(c.id);
        best_ms_ = std::min(best_ms_, steps::median_of(ev_, c.id));
      } else if (!visit(c.id)) {
        break;
      }
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
    ++pulls_[space_.arm_of(v)];
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

  struct Choice {
    int id = -1;           // a variant, or a point
    bool is_point = false; // another work-group size of a variant tried already
  };

  double bonus(const std::string& arm, double total) const {
    auto n = pulls_.find(arm);
    double pulls = n == pulls_.end() ? 0.0 : static_cast<double>(n->second);
    return kExploration * std::sqrt(std::log(1 + total) / (1 + pulls));
  }

  // The untried variant or the unmeasured point of a tried variant with the highest score.
  Choice choose() const {
    const double total = static_cast<double>(tried_.size());
    Choice best;
    double best_score = -INFINITY;
    auto consider = [&](int id, bool is_point, double score) {
      if (score > best_score) {
        best_score = score;
        best = {id, is_point};
      }
    };
    for (int v : space_.prior_order())
      if (!tried_.count(v))
        consider(v, false,
                 model_.predict(space_.variant_words(v)) + bonus(space_.arm_of(v), total));
    const double sizes_bonus = bonus(kSizesArm, total);
    for (int v : tried_)
      for (int p : space_.points_of(v))
        if (!ev_.measured(p))
          consider(p, true, model_.predict(space_.point_words(p)) + sizes_bonus);
    return best;
  }

  Evaluator& ev_;
  SearchSpace& space_; // materialized variants only are asked for their points
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
