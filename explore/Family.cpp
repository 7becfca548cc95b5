#include "explore/Family.h"

#include <algorithm>

namespace tessera::explore {

namespace {

using rewrite::MappingKind;

// What places a variant in a family, in order of precedence: words of its rule steps, and
// mappings.
struct FamilyMarks {
  std::string family;
  std::vector<std::string> words;
  std::vector<MappingKind> mappings;
};

const std::vector<FamilyMarks>& family_marks() {
  static const std::vector<FamilyMarks> marks{
      {"temporal", {"temporal-tiling", "stream-temporal"}, {}},
      {"streaming", {"stream-nd"}, {MappingKind::Streaming}},
      {"local-memory", {"stage-local"}, {MappingKind::LocalMemory}},
      {"tiled", {"tile-nd", "overlapped-tiling-nd", "slide-tiling"}, {}},
      {"coarsened", {"coarsen-nd"}, {MappingKind::Coarsened, MappingKind::CoarsenedTiles}},
      {"vectorized", {"vectorize-4"}, {MappingKind::Vectorized}},
      {"work-groups", {}, {MappingKind::WorkGroups}},
      {"diamond", {"diamond-tiling"}, {}},
      {"parallelogram", {"parallelogram-tiling"}, {}},
  };
  return marks;
}

} // namespace

const std::vector<std::string>& variant_families() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& m : family_marks())
      n.push_back(m.family);
    n.push_back("plain");
    return n;
  }();
  return names;
}

std::string variant_family(const Derivation& derivation) {
  const std::vector<std::string> steps = derivation.rule_steps();
  for (const auto& marks : family_marks()) {
    if (derivation.mapping &&
        std::count(marks.mappings.begin(), marks.mappings.end(), derivation.mapping->kind))
      return marks.family;
    for (const auto& step : steps)
      for (const auto& word : marks.words)
        if (step.find(word) != std::string::npos)
          return marks.family;
  }
  return "plain";
}

} // namespace tessera::explore
