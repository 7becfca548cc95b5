// The rule catalog, by family. Each family lives in its own file.
#pragma once

#include <vector>

#include "rewrite/Rule.h"

namespace tessera::rewrite {

std::vector<Rule> algebra_rules(); // split-join, fusion, fission, cancellations, movement
// The algebra rules that exploration_rules() enumerates: split-join, join-split-cancel,
// transpose-cancel, map-fusion (the first of algebra_rules()).
std::vector<Rule> explored_algebra_rules();
std::vector<Rule> tiling_rules();   // slide tiling (overlapped tiling), n-D tiling, streaming
Rule stream_nd_rule();              // stream-nd (Streaming.cpp), one of tiling_rules()
std::vector<Rule> temporal_rules(); // overlapped temporal tiling (several steps in one kernel)
// separate-axes (Separable.cpp): a stencil whose weights factor per axis as one step per axis.
// Not in all_rules(): exact up to rounding only, where the random-program checks of every rule
// compare bit for bit (tests/rewrite/test_separable.cpp checks it); exploration_rules() has it.
Rule separate_axes_rule();
std::vector<Rule> staging_rules(); // copies into local / private memory (placements)
Rule stage_local_rule();           // stage-local, one of staging_rules()
// place-result: a computed array in local or private memory (Staging.cpp); the mapping stage
// places the intermediate results of a tile with it.
Rule place_result_rule();
std::vector<Rule> coarsening_rules(); // c results of one dimension per work-item
std::vector<Rule> lowering_rules();   // Map -> MapGlb/MapWrg+MapLcl/MapSeq, Reduce -> ReduceSeq
// The lowering rules that the lowering strategies apply (rewrite/Lower.h, rewrite/MapLevels.h),
// by role; each is one of lowering_rules().
struct LoweringRuleSet {
  Rule glb, wrg, lcl, seq, seq_unroll, reduce_seq;
  Rule demote, to_private; // the legalisation's demotions (Demotion.cpp)
};
// map-demote: MapGlb/MapWrg/MapLcl(d)(f) -> MapSeq(f); to-private: toLocal(f) -> toPrivate(f).
Rule map_demote_rule();
Rule to_private_rule();
const LoweringRuleSet& lowering_rule_set();
// place-constant: small read-only inputs in __constant memory (Placement.cpp).
std::vector<Rule> placement_rules();
// place-image: 2-D/3-D f32 inputs read as images (ImagePlacement.cpp). Not in all_rules(): it
// applies only where the device has images (RuleContext::images), which the random-program
// checks of every rule do not model; lowered_variants applies it to the plain lowering.
Rule place_image_rule();
// The rules that complete a whole program at its root (MappingTraits::completes): vectorize-4,
// coarsen-nd, place-constant, place-image, in the order the mapping stage offers them.
std::vector<Rule> completing_rules();
// The mapping traits of a rule whose "dims" parameter is the number of dimensions it tiles.
MappingTraits tiles_dims_param();
std::vector<Rule> thread_mapping_rules(); // glb-order: the global dimension of each MapGlb level
// Diamond and parallelogram tiling: k steps as a program of kernels (docs/time-tiling.md).
std::vector<Rule> time_tiling_rules();
// Everything above.
std::vector<Rule> all_rules();
// The family the catalog's rule `name` declares (Rule::family); empty for none or an unknown
// rule.
std::string rule_family(const std::string& name);
// The rules used to enumerate variants before lowering (high-level rules, and glb-order for
// programs written with MapGlb already).
std::vector<Rule> exploration_rules();

} // namespace tessera::rewrite
