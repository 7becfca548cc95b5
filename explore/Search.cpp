#include "explore/Search.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "core/Error.h"
#include "explore/SearchSteps.h"

namespace tessera::explore {

void bandit(Evaluator& ev, SearchSpace& space, const SearchOptions& o); // explore/Bandit.cpp

std::string to_string(Strategy strategy) {
  switch (strategy) {
  case Strategy::Exhaustive:
    return "exhaustive";
  case Strategy::Random:
    return "random";
  case Strategy::Halving:
    return "halving";
  case Strategy::Bandit:
    return "bandit";
  }
  return "?";
}

Strategy parse_strategy(const std::string& name) {
  for (Strategy s : all_strategies())
    if (to_string(s) == name)
      return s;
  user_error(
      cat("unknown search strategy '", name, "': use exhaustive, random, halving or bandit"));
}

const std::vector<Strategy>& all_strategies() {
  static const std::vector<Strategy> all = {Strategy::Exhaustive, Strategy::Random,
                                            Strategy::Halving, Strategy::Bandit};
  return all;
}

namespace {

using steps::median_of;
using steps::points_within;
using steps::try_measure;

// Variants in index order (exhaustive) or in a seeded random order, each variant's points in
// its order or shuffled.
void ordered(Evaluator& ev, SearchSpace& space, const SearchOptions& o, bool shuffle) {
  std::vector<int> order = space.prior_order();
  std::sort(order.begin(), order.end());
  std::mt19937 rng(o.seed);
  if (shuffle)
    std::shuffle(order.begin(), order.end(), rng);
  ev.phase(shuffle ? "random order" : "space order");
  // The baseline's other points first (its first point, the baseline, is measured already).
  order.insert(order.begin(), space.variant_of(0));
  for (int v : order) {
    const std::vector<int>* listed = points_within(ev, space, v, o.deadline_s);
    if (!listed)
      continue;
    std::vector<int> points = *listed;
    if (shuffle)
      std::shuffle(points.begin(), points.end(), rng);
    steps::build_ahead(ev, points);
    for (int p : points) {
      if (ev.stop_requested())
        return;
      if (!ev.measured(p))
        try_measure(ev, p, o.repeats, o.deadline_s);
    }
  }
}

void halving(Evaluator& ev, SearchSpace& space, const SearchOptions& o) {
  std::vector<int> variants = space.prior_order();
  variants.insert(variants.begin(), space.variant_of(0));
  // Stage 2 widens (a quarter, a half, all of the variants) when it has nothing left to try.
  std::size_t share = 4;
  for (bool progress = true; progress && !ev.stop_requested();) {
    progress = false;
    const double end = o.deadline_s - steps::finals_cost(ev, space, o.repeats);
    // Stage 1: variants, each through its first point (the work-group size the prior prefers,
    // or the automatic one), one timed launch.
    ev.phase("variants");
    const double stage1_end =
        ev.now() + 0.6 * std::max(0.0, end - ev.reserve() - ev.now()) + ev.reserve();
    for (std::size_t i = 0; i < variants.size(); ++i) {
      if (i % steps::kBuildAhead == 0)
        steps::build_ahead(ev, space, variants, i, stage1_end);
      const int v = variants[i];
      const std::vector<int>* points = points_within(ev, space, v, stage1_end);
      if (points && !points->empty() && !ev.measured(points->front()) &&
          try_measure(ev, points->front(), 1, stage1_end))
        progress = true;
      if (ev.stop_requested())
        return;
    }
    // Stage 2: every point of the best quarter of the variants measured so far.
    std::vector<std::pair<double, int>> ranked;
    for (int v : variants) {
      if (!space.materialized(v))
        continue;
      double best = INFINITY;
      for (int p : space.points_of(v))
        best = std::min(best, median_of(ev, p));
      if (std::isfinite(best))
        ranked.push_back({best, v});
    }
    std::sort(ranked.begin(), ranked.end());
    std::size_t keep = std::max<std::size_t>(1, (ranked.size() + share - 1) / share);
    ev.phase("work-group sizes");
    const double stage2_end = o.deadline_s - steps::finals_cost(ev, space, o.repeats);
    bool stage2_progress = false;
    for (std::size_t i = 0; i < ranked.size() && i < keep; ++i) {
      steps::build_ahead(ev, space.points_of(ranked[i].second));
      for (int p : space.points_of(ranked[i].second)) {
        if (!ev.measured(p) && try_measure(ev, p, 1, stage2_end))
          stage2_progress = true;
        if (ev.stop_requested())
          return;
      }
    }
    progress |= stage2_progress;
    if (!stage2_progress && share > 1) {
      share /= 2;
      progress = true;
    }
  }
  steps::final_halving(ev, space, o);
}

} // namespace

void search(Evaluator& ev, SearchSpace& space, const SearchOptions& o) {
  if (space.variant_count() == 0)
    return;
  ev.phase("baseline");
  // The baseline always runs: it is the reference and the yardstick.
  const std::vector<int>& base = space.points_of(0);
  if (base.empty() || base.front() != 0)
    internal_error("the baseline variant's first point is not point 0");
  if (!ev.measured(0) && !ev.stop_requested())
    ev.measure(0, o.repeats);
  switch (o.strategy) {
  case Strategy::Exhaustive:
    ordered(ev, space, o, false);
    break;
  case Strategy::Random:
    ordered(ev, space, o, true);
    break;
  case Strategy::Halving:
    halving(ev, space, o);
    break;
  case Strategy::Bandit:
    bandit(ev, space, o);
    break;
  }
}

void search(Evaluator& ev, const std::vector<Point>& points, const SearchOptions& o) {
  if (points.empty())
    return;
  StaticSpace space(points);
  search(ev, space, o);
}

} // namespace tessera::explore
