#include "explore/FeatureModel.h"

#include <cmath>

namespace tessera::explore {

namespace {
// Pseudo-observations at speedup 1 behind every word: one lucky point does not make a word good.
constexpr double kShrinkage = 2;
} // namespace

void FeatureModel::add(const std::vector<std::string>& words, double speedup) {
  double value = std::log(speedup > 0 && std::isfinite(speedup) ? speedup : kFailedSpeedup);
  for (const auto& w : words) {
    words_[w].sum += value;
    words_[w].count += 1;
  }
  ++observations_;
}

double FeatureModel::predict(const std::vector<std::string>& words) const {
  double sum = 0;
  int known = 0;
  for (const auto& w : words) {
    auto it = words_.find(w);
    if (it == words_.end())
      continue;
    sum += it->second.sum / (it->second.count + kShrinkage);
    ++known;
  }
  return known ? sum / known : 0.0;
}

double FeatureModel::support(const std::vector<std::string>& words) const {
  double n = 0;
  for (const auto& w : words)
    if (auto it = words_.find(w); it != words_.end())
      n += it->second.count;
  return n;
}

} // namespace tessera::explore
