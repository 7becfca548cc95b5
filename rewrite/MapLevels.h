// The mapping stage's strategies: a tiled or streaming mapping (rewrite/Mapping.h) applied to a
// high-level variant's computing call by the lowering rules (rules/Lowering.cpp).
//
// A mapping is a list of levels, outermost first, each a lowering rule with its parameters
// (map-wrg, map-lcl, map-glb with a dimension, map-seq, map-seq-unroll); the outermost maps of
// the computing call (through lambdas whose body applies the next map) get them in order,
// deeper maps and the call's argument are lowered sequentially (lower_sequential). Intermediate
// computations inside a mapped function (the earlier steps of a temporally tiled tile) run on
// the same work-items, their results in local memory between work-group levels and in private
// memory otherwise; the local-memory mapping then applies stage-local to each work-group's tile.
// A planner decides which rule applies where with which parameters; at_each (rewrite/Strategy.h)
// applies the plan.
#pragma once

#include "core/Expr.h"
#include "core/Target.h"
#include "rewrite/Mapping.h"

namespace tessera::rewrite {

// The computing call under the layout operations that only rearrange the result (Join,
// Transpose, Map of those).
Expr find_compute(const Expr& e);

// The program with its computing call mapped as `mapping` (work-groups, local-memory,
// coarsened-tiles, streaming), or null when the call has fewer maps than the mapping levels or
// when the earlier steps it reads, computed whole by every work-item, exceed the target's
// private memory.
Expr apply_mapping(const Expr& program, const Mapping& mapping, const Target& target = {});

} // namespace tessera::rewrite
