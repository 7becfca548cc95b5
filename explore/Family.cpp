#include "explore/Family.h"

#include <algorithm>

#include "rewrite/rules/Rules.h"

namespace tessera::explore {

namespace {

using rewrite::MappingKind;

// The families in order of precedence, with the mappings that place a variant in them; a rule
// step places it in the family its rule declares (rewrite::Rule::family).
struct FamilyMarks {
  std::string family;
  std::vector<MappingKind> mappings;
};

const std::vector<FamilyMarks>& family_marks() {
  static const std::vector<FamilyMarks> marks{
      {"separable", {}},
      {"temporal", {}},
      {"streaming", {MappingKind::Streaming}},
      {"local-memory", {MappingKind::LocalMemory}},
      {"tiled", {}},
      {"coarsened", {MappingKind::Coarsened, MappingKind::CoarsenedTiles}},
      {"vectorized", {MappingKind::Vectorized}},
      {"work-groups", {MappingKind::WorkGroups}},
      {"diamond", {}},
      {"parallelogram", {}},
      {"rolling", {}},
      {"split-launch", {MappingKind::SplitLaunch}},
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
  std::vector<std::string> step_families;
  for (const auto& step : derivation.rule_steps())
    step_families.push_back(rewrite::rule_family(step.rule));
  for (const auto& marks : family_marks()) {
    if (derivation.mapping &&
        std::count(marks.mappings.begin(), marks.mappings.end(), derivation.mapping->kind))
      return marks.family;
    if (std::count(step_families.begin(), step_families.end(), marks.family))
      return marks.family;
  }
  return "plain";
}

} // namespace tessera::explore
