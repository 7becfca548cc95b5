// The explorer's space, materialized on demand: every variant is known from the start (cheap:
// enumerated and lowered), but its kernel is generated and its points listed only when a
// search strategy reaches it, in the prior's order (explore/Prior.h). The seconds spent
// generating are measured (their mean is the estimate for the next variant) and billed to the
// variant's first measured point.
#pragma once

#include <string>
#include <vector>

#include "explore/Prior.h"
#include "explore/SearchSpace.h"
#include "explore/Space.h"

namespace tessera::explore {

class LazySpace : public SearchSpace {
public:
  LazySpace(std::vector<VariantInfo> variants, const Target& target, std::string kernel_name,
            Prior prior);

  const Space& space() const { return space_; }
  const Prior& prior() const { return prior_; }
  int materialized_count() const { return materialized_count_; }

  int variant_count() const override { return static_cast<int>(space_.variants.size()); }
  int point_count() const override { return static_cast<int>(space_.points.size()); }
  const std::vector<int>& prior_order() const override { return prior_.order; }
  bool materialized(int variant) const override;
  double materialize_estimate(int variant) const override;
  const std::vector<int>& points_of(int variant) override;
  int variant_of(int point) const override;
  const std::string& arm_of(int variant) const override;
  const std::vector<std::string>& variant_words(int variant) const override;
  std::vector<std::string> point_words(int point) const override;
  const FeatureModel& model() const override { return prior_.model; }

  // The generation seconds of the variant not yet billed to a point (then 0).
  double take_generation_seconds(int variant);
  // The materialized part, for the replays of the strategies.
  SpaceSnapshot snapshot() const;

private:
  Space space_;
  std::string kernel_name_;
  Prior prior_;
  std::vector<std::vector<int>> points_;
  std::vector<char> done_;
  std::vector<double> unbilled_;
  int materialized_count_ = 0;
  double generation_sum_ = 0;
};

} // namespace tessera::explore
