// The default lowering of a high-level program: the outermost nest of computing Maps becomes
// MapGlb, every other computing Map becomes MapSeq and every Reduce ReduceSeq. Dimension 0
// goes to the level stored most contiguously (rewrite/StoreOrder.h; the innermost level unless
// a Transpose of the result moves it), so that neighbouring work-items write neighbouring
// elements; glb-order gives the other orders. It is the baseline variant the explorer compares
// against ("plain MapGlb lowering").
//
// A program of several whole-array steps (Iterate(k, f) $ x, or g $ (f $ x) where g reads f's
// result) gets a MapGlb nest per step, each nest's dimensions chosen by store order:
// codegen::generate_program makes one launch of each, with the intermediate arrays in buffers
// between them (never one work-item doing every step). Mappings already in the program that
// cannot run where they stand become sequential, and toLocal outside work-groups toPrivate
// (rewrite/Legalize.h).
//
// It is a strategy: seq(everywhere(rule_with(map-glb, the stage level's dim)), the sequential
// lowering, the legalisation); a planner only finds the stages' levels and their dimensions.
#pragma once

#include "core/Expr.h"
#include "rewrite/Strategy.h"

namespace tessera::rewrite {

Expr lower_default(const Expr& program);
// A function lowered for one work-item: every computing Map becomes MapSeq, Reduce ReduceSeq.
Expr lower_sequential(const Expr& f);
// lower_sequential as a strategy: everywhere(where(computing Map, map-seq) | reduce-seq).
const Strategy& sequential_lowering();

} // namespace tessera::rewrite
