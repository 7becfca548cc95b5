// The space as a search strategy sees it: variants visited in the prior's order, each
// materialized (its kernel generated, its points listed) only when the search reaches it, so
// that a space of thousands of variants costs nothing until its points are measured.
//
// Point ids are given as variants are materialized (the baseline variant first, so its first
// point is point 0). StaticSpace is a space known whole: the points of a finished or replayed
// exploration, or of a test.
#pragma once

#include <string>
#include <vector>

#include "explore/FeatureModel.h"
#include "explore/Space.h"

namespace tessera::explore {

class SearchSpace {
public:
  virtual ~SearchSpace() = default;
  virtual int variant_count() const = 0; // variant 0 is the baseline
  virtual int point_count() const = 0;   // points listed so far
  // The variants other than the baseline, in the order the prior ranks them, best first.
  virtual const std::vector<int>& prior_order() const = 0;
  virtual bool materialized(int variant) const = 0;
  // Seconds that materializing the variant is expected to take (0 once it is).
  virtual double materialize_estimate(int variant) const = 0;
  // Materializes the variant: its points' ids, in the order to try them (the work-group sizes
  // the prior prefers first); empty when the device can run none of them.
  virtual const std::vector<int>& points_of(int variant) = 0;
  virtual int variant_of(int point) const = 0;
  // The variant's arm for the bandit: the rules it applied, without their parameters.
  virtual const std::string& arm_of(int variant) const = 0;
  // Feature words (explore/Features.h) of a variant and of a point.
  virtual const std::vector<std::string>& variant_words(int variant) const = 0;
  virtual std::vector<std::string> point_words(int point) const = 0;
  // The prior's cost model (learned from the tuning database); empty when there is none.
  virtual const FeatureModel& model() const = 0;
};

// What a strategy needs of a space known whole.
struct SpaceSnapshot {
  std::vector<Point> points;                   // grouped by variant, or in any order
  std::vector<int> order;                      // prior order (empty: variant index order)
  std::vector<std::string> arms;               // per variant (empty: "plain")
  std::vector<std::vector<std::string>> words; // per variant (empty: none)
  FeatureModel model;
};

class StaticSpace : public SearchSpace {
public:
  explicit StaticSpace(SpaceSnapshot snapshot);
  explicit StaticSpace(const std::vector<Point>& points) : StaticSpace(SpaceSnapshot{points}) {}
  int variant_count() const override { return static_cast<int>(points_by_variant_.size()); }
  int point_count() const override { return static_cast<int>(snapshot_.points.size()); }
  const std::vector<int>& prior_order() const override { return order_; }
  bool materialized(int) const override { return true; }
  double materialize_estimate(int) const override { return 0; }
  const std::vector<int>& points_of(int variant) override;
  int variant_of(int point) const override;
  const std::string& arm_of(int variant) const override;
  const std::vector<std::string>& variant_words(int variant) const override;
  std::vector<std::string> point_words(int point) const override;
  const FeatureModel& model() const override { return snapshot_.model; }

private:
  SpaceSnapshot snapshot_;
  std::vector<std::vector<int>> points_by_variant_;
  std::vector<int> order_;
};

} // namespace tessera::explore
