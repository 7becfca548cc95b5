#include "explore/SearchSteps.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"

namespace tessera::explore::steps {

namespace {
constexpr std::size_t kFinalists = 8;
}

bool try_measure(Evaluator& ev, int point, int repeats, double deadline) {
  if (ev.stop_requested())
    return false;
  if (ev.now() + ev.estimate(point, repeats) > deadline - ev.reserve())
    return false;
  ev.measure(point, repeats);
  return true;
}

const std::vector<int>* points_within(Evaluator& ev, SearchSpace& space, int variant,
                                      double deadline) {
  if (ev.stop_requested())
    return nullptr;
  // Generating a variant is worth it only when its first point fits too.
  if (!space.materialized(variant) &&
      ev.now() + space.materialize_estimate(variant) + ev.estimate_unlisted(1) >
          deadline - ev.reserve())
    return nullptr;
  return &space.points_of(variant);
}

void build_ahead(Evaluator& ev, const std::vector<int>& points) {
  if (!ev.builds_ahead())
    return;
  std::vector<int> fresh;
  for (int p : points)
    if (!ev.measured(p))
      fresh.push_back(p);
  ev.build_ahead(fresh);
}

void build_ahead(Evaluator& ev, SearchSpace& space, const std::vector<int>& variants,
                 std::size_t from, double deadline) {
  if (!ev.builds_ahead())
    return;
  std::vector<int> ahead;
  double end = ev.now();
  for (std::size_t i = from; i < variants.size() && i < from + kBuildAhead; ++i) {
    const int v = variants[i];
    end += (space.materialized(v) ? 0 : space.materialize_estimate(v)) + ev.estimate_unlisted(1);
    if (ev.stop_requested() || end > deadline - ev.reserve())
      break;
    const std::vector<int>& points = space.points_of(v);
    if (!points.empty())
      ahead.push_back(points.front());
  }
  build_ahead(ev, ahead);
}

double median_of(const Evaluator& ev, int p) {
  auto r = ev.result(p);
  return r && r->ok ? r->median_ms : INFINITY;
}

std::vector<int> fastest(const Evaluator& ev, const SearchSpace& space, std::size_t count) {
  std::vector<int> ids;
  for (int i = 0; i < space.point_count(); ++i)
    if (std::isfinite(median_of(ev, i)))
      ids.push_back(i);
  std::sort(ids.begin(), ids.end(),
            [&](int a, int b) { return median_of(ev, a) < median_of(ev, b); });
  if (ids.size() > count)
    ids.resize(count);
  return ids;
}

double finals_cost(const Evaluator& ev, const SearchSpace& space, int repeats) {
  auto finalists = fastest(ev, space, kFinalists);
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

void final_halving(Evaluator& ev, const SearchSpace& space, const SearchOptions& o) {
  std::vector<int> candidates = fastest(ev, space, kFinalists);
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

} // namespace tessera::explore::steps
