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

#include <nlohmann/json_fwd.hpp>

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

// The variant's derivation without positions, as JSON: {"steps": [{"rule": "tile-nd",
// "params": {"dims": 2, "tile": 16}}], "mapping": {"kind": "coarsened-tiles"}, "after_mapping":
// [...]} (mapping and after_mapping absent when there are none). The same transformation of
// another grid size or of a deeper enumeration has the same key. The mapping is keyed by its
// kind and the parameters its words name (factor, dim, interleaved, input, space), not by the
// dimensions, segment and unrolling that the tiling and streaming steps' parameters decide.
nlohmann::json variant_key(const Derivation& derivation);
// variant_key as compact text (object keys sorted): the tuning database's signature, a map key.
std::string variant_signature(const Derivation& derivation);
// The signature of a point recorded as text by a tuning database of version 2 or older
// ("tile-nd {dims=2, tile=16} | mapping: coarsened", "plain"). Error naming `where` for text of
// another form.
std::string signature_from_text(const std::string& text, const std::string& where);

// The words of a point: its variant's words and its work-group size ("local=32x8").
std::vector<std::string> point_words(const VariantFeatures& features, const std::string& local);

} // namespace tessera::explore
