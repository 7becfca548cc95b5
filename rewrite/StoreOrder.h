// Where the levels of a computed result end up in memory.
//
// The result of a program's computing call (a nest of k Map levels, outermost first) may be
// rearranged before it is stored: Join and Split keep the row-major order of the levels,
// Transpose (at any depth, through Map) swaps two of them. The store order lists the nest's
// levels from the slowest-varying to the contiguous one, so that the lowering can give dimension
// 0 (neighbouring work-items) to the level whose neighbours are neighbours in memory.
#pragma once

#include <optional>
#include <vector>

#include "core/Expr.h"

namespace tessera::rewrite {

// The nest levels 0..k-1 of `compute` in the order of their strides in the stored result of
// `root` (the program's body, with `compute` under a chain of layout calls), slowest first;
// nullopt when the chain has a rearrangement other than Join, Split, Transpose or Maps of them.
std::optional<std::vector<int>> store_order(const Expr& root, const Expr& compute, int k);

} // namespace tessera::rewrite
