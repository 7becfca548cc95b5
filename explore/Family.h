// The family of a rewrite variant, from its derivation: what kind of optimisation it is, for
// reports and plots. The first family that the rule of one of its steps declares
// (rewrite::Rule::family) or that its mapping (rewrite/Mapping.h) belongs to wins, in this
// order:
//   separable     separate-axes (a stencil whose weights factor per axis, one step per axis)
//   temporal      temporal-tiling, stream-temporal (several time steps fused in one kernel)
//   streaming     stream-nd; the streaming mapping (work-items march along a dimension)
//   local-memory  stage-local; the local-memory mapping (tiles staged in local memory)
//   tiled         tile-nd, overlapped-tiling-nd, slide-tiling
//   coarsened     coarsen-nd; the coarsened and coarsened-tiles mappings (several outputs per
//                 work-item)
//   vectorized    vectorize-4; the vectorized mapping
//   work-groups   the work-groups mapping (MapWrg + MapLcl without tiling)
//   diamond       diamond-tiling
//   parallelogram parallelogram-tiling
//   rolling       rolling-tiling (a CPU's temporal tiling: one work-item a strip of rows)
//   split-launch  the split-launch mapping (the plain lowering's interior launched apart, without
//                 boundary conditionals)
//   plain         anything else (the MapGlb lowering and its work-group sizes)
#pragma once

#include <string>
#include <vector>

#include "explore/Derivation.h"

namespace tessera::explore {

// The families in the order above (plain last).
const std::vector<std::string>& variant_families();

std::string variant_family(const Derivation& derivation);

} // namespace tessera::explore
