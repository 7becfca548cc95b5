// The default lowering of a high-level program: the outermost nest of computing Maps becomes
// MapGlb (the innermost of them dimension 0, so that neighbouring work-items touch neighbouring
// elements), every other computing Map becomes MapSeq and every Reduce ReduceSeq. It is the
// baseline variant the explorer compares against ("plain MapGlb lowering").
#pragma once

#include "core/Expr.h"

namespace tessera::rewrite {

Expr lower_default(const Expr& program);
// A function lowered for one work-item: every computing Map becomes MapSeq, Reduce ReduceSeq.
Expr lower_sequential(const Expr& f);

} // namespace tessera::rewrite
