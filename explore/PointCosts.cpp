#include "explore/PointCosts.h"

#include <algorithm>

namespace tessera::explore {

void PointCosts::learn(const PointResult& p, bool resumed) {
  if (!resumed && !built_variants_.count(p.variant) && p.build_ms > 0) {
    build_sum_ += p.build_ms / 1e3;
    ++builds_;
  }
  if (!p.kernel_hash.empty())
    built_variants_.insert(p.variant);
  if (p.status != PointStatus::Ok)
    return;
  launch_of_variant_[p.variant] = p.launch_s;
  launch_sum_ += p.launch_s;
  ++launches_;
  if (!resumed) {
    check_sum_ += p.check_s;
    double parts = p.build_ms / 1e3 + p.check_s + p.launch_s * (warmup_ + p.repeats);
    overhead_sum_ += std::max(0.0, p.cost_s - parts);
    ++checks_;
  }
}

double PointCosts::estimate(int v, bool measured, int repeats) const {
  double launch = launch_of_variant_.count(v) ? launch_of_variant_.at(v)
                  : launches_                 ? launch_sum_ / launches_
                                              : 0.05;
  double cost = (warmup_ + repeats) * launch;
  if (!measured) {
    double build = built_variants_.count(v) ? 0.0 : builds_ ? build_sum_ / builds_ : 1.0;
    double check = checks_ ? check_sum_ / checks_ : 2 * launch + 0.05;
    cost += build + check + (checks_ ? overhead_sum_ / checks_ : 0.02);
  }
  return cost;
}

} // namespace tessera::explore
