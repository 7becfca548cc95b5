// The default lowering of a high-level program: the outermost nest of computing Maps becomes
// MapGlb, every other computing Map becomes MapSeq and every Reduce ReduceSeq. Dimension 0
// goes to the level stored most contiguously (rewrite/StoreOrder.h; the innermost level unless
// a Transpose of the result moves it), so that neighbouring work-items write neighbouring
// elements; glb-order gives the other orders. It is the baseline variant the explorer compares
// against ("plain MapGlb lowering").
#pragma once

#include "core/Expr.h"

namespace tessera::rewrite {

Expr lower_default(const Expr& program);
// A function lowered for one work-item: every computing Map becomes MapSeq, Reduce ReduceSeq.
Expr lower_sequential(const Expr& f);

} // namespace tessera::rewrite
