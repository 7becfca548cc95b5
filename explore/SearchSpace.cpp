#include "explore/SearchSpace.h"

#include <algorithm>
#include <set>

#include "core/Error.h"

namespace tessera::explore {

StaticSpace::StaticSpace(SpaceSnapshot snapshot) : snapshot_(std::move(snapshot)) {
  int variants = 0;
  for (const auto& p : snapshot_.points) {
    if (p.variant < 0)
      user_error(cat("a point of variant ", p.variant, ": variants are numbered from 0"));
    variants = std::max(variants, p.variant + 1);
  }
  variants = std::max({variants, static_cast<int>(snapshot_.arms.size()),
                       static_cast<int>(snapshot_.words.size())});
  points_by_variant_.resize(static_cast<std::size_t>(variants));
  for (int i = 0; i < static_cast<int>(snapshot_.points.size()); ++i)
    points_by_variant_[static_cast<std::size_t>(
                           snapshot_.points[static_cast<std::size_t>(i)].variant)]
        .push_back(i);
  snapshot_.arms.resize(static_cast<std::size_t>(variants), "plain");
  snapshot_.words.resize(static_cast<std::size_t>(variants));
  // The given order, then the variants it leaves out in index order; never the baseline's, and
  // only variants with points (a snapshot of a lazy space describes variants never listed).
  const int baseline = snapshot_.points.empty() ? 0 : snapshot_.points[0].variant;
  std::set<int> placed{baseline};
  auto place = [&](int v) {
    if (v >= 0 && v < variants && !points_by_variant_[static_cast<std::size_t>(v)].empty() &&
        placed.insert(v).second)
      order_.push_back(v);
  };
  for (int v : snapshot_.order)
    place(v);
  for (int v = 0; v < variants; ++v)
    place(v);
}

const std::vector<int>& StaticSpace::points_of(int variant) {
  return points_by_variant_.at(static_cast<std::size_t>(variant));
}

int StaticSpace::variant_of(int point) const {
  return snapshot_.points.at(static_cast<std::size_t>(point)).variant;
}

const std::string& StaticSpace::arm_of(int variant) const {
  return snapshot_.arms.at(static_cast<std::size_t>(variant));
}

const std::vector<std::string>& StaticSpace::variant_words(int variant) const {
  return snapshot_.words.at(static_cast<std::size_t>(variant));
}

std::vector<std::string> StaticSpace::point_words(int point) const {
  std::vector<std::string> words = variant_words(variant_of(point));
  words.push_back("local=" + snapshot_.points.at(static_cast<std::size_t>(point)).local_text());
  return words;
}

} // namespace tessera::explore
