// What the search knows about a variant before it is generated: a bag of feature words taken
// from its rewrite history (rules, parameters, mapping, family) and from the estimated shape of
// its launch (outputs per work-item, hence work-items and expected occupancy), and a signature
// that names the same variant across grid sizes, depths and runs.
//
// The words are deliberately coarse ("rule:tile-nd", "tile=16", "family:coarsened",
// "items~2^18"): a cost model learned from measured points (explore/FeatureModel.h) generalises
// over variants, grid sizes and similar programs through the words they share.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "explore/Space.h"

namespace tessera::explore {

struct VariantFeatures {
  std::string family;             // explore/Family.h
  std::string arm;                // the rules applied, without parameters ("tile-nd | mapping:
                                  // coarsened"): the bandit's arm
  int steps = 0;                  // rewrite steps before the mapping (the depth it needs)
  int64_t outputs_per_item = 1;   // estimated results one work-item computes
  int64_t work_items = 1;         // estimated work-items of the launch
  std::vector<std::string> words; // the bag of features, sorted, without duplicates
};

// `cells`: the grid's output cells (the product of the extents).
VariantFeatures variant_features(const VariantInfo& variant, int64_t cells);

// The variant's rewrite steps without positions ("tile-nd {dims=2, tile=16} | mapping:
// coarsened"): the same transformation of another grid size or of a deeper enumeration has the
// same signature.
std::string variant_signature(const Derivation& derivation);

// The words of a point: its variant's words and its work-group size ("local=32x8").
std::vector<std::string> point_words(const VariantFeatures& features, const std::string& local);

} // namespace tessera::explore
