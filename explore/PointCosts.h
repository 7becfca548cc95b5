// What the explorer has learnt of what a point costs (building its kernel, checking it against
// the reference, its launches, and the rest), from the points measured so far: the search's
// estimates of what the next points will cost come from here.
#pragma once

#include <map>
#include <set>

#include "explore/Report.h"

namespace tessera::explore {

class PointCosts {
public:
  explicit PointCosts(int warmup) : warmup_(warmup) {}
  // A measured point; `resumed`: from an earlier run (its launch time counts, its build and
  // check times were another run's).
  void learn(const PointResult& p, bool resumed);
  // Seconds a point of variant v (-1: one not generated yet) costs with `repeats` timed
  // launches; `measured`: it has been built and checked before.
  double estimate(int variant, bool measured, int repeats) const;

private:
  int warmup_;
  std::set<int> built_variants_;
  std::map<int, double> launch_of_variant_;
  double build_sum_ = 0, launch_sum_ = 0, check_sum_ = 0, overhead_sum_ = 0;
  int builds_ = 0, launches_ = 0, checks_ = 0;
};

} // namespace tessera::explore
