#include "explore/Family.h"

#include <utility>

namespace tessera::explore {

namespace {

// Words of history steps that place a variant in a family, in order of precedence.
const std::vector<std::pair<std::string, std::vector<std::string>>>& family_words() {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> words{
      {"temporal", {"temporal-tiling", "stream-temporal"}},
      {"streaming", {"stream-nd", "streaming"}},
      {"local-memory", {"stage-local", "local memory"}},
      {"tiled", {"tile-nd", "overlapped-tiling-nd", "slide-tiling"}},
      {"coarsened", {"coarsen-nd", "coarsened"}},
      {"vectorized", {"vectorize-4", "vectorized"}},
      {"work-groups", {"work-groups"}},
      {"diamond", {"diamond-tiling"}},
      {"parallelogram", {"parallelogram-tiling"}},
  };
  return words;
}

} // namespace

const std::vector<std::string>& variant_families() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& [family, words] : family_words())
      n.push_back(family);
    n.push_back("plain");
    return n;
  }();
  return names;
}

std::string variant_family(const std::vector<std::string>& history) {
  for (const auto& [family, words] : family_words())
    for (const auto& step : history)
      for (const auto& word : words)
        if (step.find(word) != std::string::npos)
          return family;
  return "plain";
}

} // namespace tessera::explore
