// The default lowering of a high-level program: the outermost nest of computing Maps becomes
// MapGlb (the innermost of them dimension 0, so that neighbouring work-items touch neighbouring
// elements), every other computing Map becomes MapSeq and every Reduce ReduceSeq. It is the
// baseline variant the explorer compares against ("plain MapGlb lowering").
//
// A program of several whole-array steps (Iterate(k, f) $ x, or g $ (f $ x) where g reads f's
// result) gets a MapGlb nest per step: codegen::generate_program makes one launch of each, with
// the intermediate arrays in buffers between them (never one work-item doing every step).
// Without work-groups, toLocal (from stage-local) becomes toPrivate: each work-item's own copy.
#pragma once

#include "core/Expr.h"

namespace tessera::rewrite {

Expr lower_default(const Expr& program);
// A function lowered for one work-item: every computing Map becomes MapSeq, Reduce ReduceSeq.
Expr lower_sequential(const Expr& f);

} // namespace tessera::rewrite
