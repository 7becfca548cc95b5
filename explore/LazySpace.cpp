#include "explore/LazySpace.h"

#include <algorithm>
#include <chrono>

#include "core/Error.h"

namespace tessera::explore {

namespace {
// The estimate before any variant was generated: a typical generation on this project's
// machines is 10-50 ms.
constexpr double kFirstGenerationEstimate = 0.05;
} // namespace

LazySpace::LazySpace(std::vector<VariantInfo> variants, const Target& target,
                     std::string kernel_name, Prior prior)
    : kernel_name_(std::move(kernel_name)), prior_(std::move(prior)) {
  if (variants.empty())
    user_error("the exploration space has no variants");
  if (prior_.features.size() != variants.size())
    internal_error("the prior does not describe every variant of the space");
  space_.target = target;
  space_.variants = std::move(variants);
  space_.kernels.resize(space_.variants.size());
  space_.generation_errors.resize(space_.variants.size());
  points_.resize(space_.variants.size());
  done_.resize(space_.variants.size(), 0);
  unbilled_.resize(space_.variants.size(), 0.0);
}

bool LazySpace::materialized(int variant) const {
  return done_.at(static_cast<std::size_t>(variant)) != 0;
}

double LazySpace::materialize_estimate(int variant) const {
  if (materialized(variant))
    return 0;
  return materialized_count_ ? generation_sum_ / materialized_count_ : kFirstGenerationEstimate;
}

const std::vector<int>& LazySpace::points_of(int variant) {
  const auto v = static_cast<std::size_t>(variant);
  if (done_.at(v))
    return points_[v];
  auto t0 = std::chrono::steady_clock::now();
  std::vector<int> ids = add_variant_points(space_, variant, kernel_name_);
  // The work-group sizes the database prefers first; the baseline keeps its automatic point
  // first (point 0 is the baseline).
  const auto& preferred = prior_.preferred_locals[v];
  auto rank = [&](int id) {
    std::string local = space_.points[static_cast<std::size_t>(id)].local_text();
    auto it = std::find(preferred.begin(), preferred.end(), local);
    return it == preferred.end() ? preferred.size()
                                 : static_cast<std::size_t>(it - preferred.begin());
  };
  if (variant != 0)
    std::stable_sort(ids.begin(), ids.end(), [&](int a, int b) { return rank(a) < rank(b); });
  points_[v] = std::move(ids);
  done_[v] = 1;
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  unbilled_[v] = seconds;
  generation_sum_ += seconds;
  ++materialized_count_;
  return points_[v];
}

int LazySpace::variant_of(int point) const {
  return space_.points.at(static_cast<std::size_t>(point)).variant;
}

const std::string& LazySpace::arm_of(int variant) const {
  return prior_.features.at(static_cast<std::size_t>(variant)).arm;
}

const std::vector<std::string>& LazySpace::variant_words(int variant) const {
  return prior_.features.at(static_cast<std::size_t>(variant)).words;
}

std::vector<std::string> LazySpace::point_words(int point) const {
  const Point& p = space_.points.at(static_cast<std::size_t>(point));
  return explore::point_words(prior_.features.at(static_cast<std::size_t>(p.variant)),
                              p.local_text());
}

double LazySpace::take_generation_seconds(int variant) {
  double s = unbilled_.at(static_cast<std::size_t>(variant));
  unbilled_[static_cast<std::size_t>(variant)] = 0;
  return s;
}

SpaceSnapshot LazySpace::snapshot() const {
  SpaceSnapshot s;
  s.points = space_.points;
  for (int v : prior_.order)
    if (materialized(v))
      s.order.push_back(v);
  for (const auto& f : prior_.features) {
    s.arms.push_back(f.arm);
    s.words.push_back(f.words);
  }
  s.model = prior_.model;
  return s;
}

} // namespace tessera::explore
