// The family of a rewrite variant, from its history: what kind of optimisation it is, for
// reports and plots. The first family one of whose words occurs in a step wins, in this order:
//   temporal      temporal-tiling (several time steps fused in one kernel)
//   streaming     stream-nd, "mapping: streaming" (work-items march along a dimension)
//   local-memory  stage-local, "mapping: work-groups, local memory" (tiles staged in local memory)
//   tiled         tile-nd, overlapped-tiling-nd, slide-tiling
//   coarsened     coarsen-nd, "mapping: coarsened" (several outputs per work-item)
//   vectorized    vectorize-4, "mapping: vectorized"
//   work-groups   "mapping: work-groups" (MapWrg + MapLcl without tiling)
//   plain         anything else (the MapGlb lowering and its work-group sizes)
#pragma once

#include <string>
#include <vector>

namespace tessera::explore {

// The families in the order above (plain last).
const std::vector<std::string>& variant_families();

// History steps as reports and rewrite::describe write them ("tile-nd at [1] {tile=16}",
// "mapping: coarsened 2x along dimension 0").
std::string variant_family(const std::vector<std::string>& history);

} // namespace tessera::explore
