// A cost model learned from measured points: the log of a point's speedup over the plain
// lowering, predicted as the mean of the effects of its feature words (explore/Features.h),
// each word's effect the mean log-speedup of the points that had it, shrunk towards 0 (no
// better, no worse than the baseline) while few points had it. Cheap to update after every
// measurement, so the learning strategy refits it as it goes; seeded from the tuning database,
// it carries what earlier explorations of the device learned to a new program or grid size.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace tessera::explore {

class FeatureModel {
public:
  // A measured point: its words and its speedup over the baseline (baseline / median); a point
  // that failed counts as kFailedSpeedup.
  void add(const std::vector<std::string>& words, double speedup);
  // Predicted log-speedup (0: like the baseline, also for words never seen).
  double predict(const std::vector<std::string>& words) const;
  // How many observations back the prediction (sum over the words of their counts).
  double support(const std::vector<std::string>& words) const;
  std::size_t observations() const { return observations_; }

  static constexpr double kFailedSpeedup = 0.1;

private:
  struct Stat {
    double sum = 0;
    double count = 0;
  };
  std::map<std::string, Stat> words_;
  std::size_t observations_ = 0;
};

} // namespace tessera::explore
