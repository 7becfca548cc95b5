// Builders of n-dimensional nests over the IR, used by the rewrite rules and by the code
// generator (which stores arrays of tuples as one buffer per component and zips them back), and
// the plan of the n-dimensional windows that the DSL's builders (slide_nd, split_nd) and the
// rules' (rewrite/Shapes.h) both follow, so that the two encode n-D windows the same way.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/Expr.h"

namespace tessera {

// Map^dims(f): f applied at the `dims`-th level (Map(Map(f)) for dims = 2).
Expr map_nest(int dims, Expr f, MapKind kind = MapKind::Map);
// One step of an n-D encoding: a window (the Slide or Split of dimension `dim`) or a Transpose,
// applied at nesting level `level` (Map^level of it).
struct NdStep {
  enum Kind { Window, Transpose } kind;
  int level;
  int dim = 0; // of a Window
};
// Windows at every level (outer first), then the window levels moved outwards by adjacent
// transposes: [n0][n1].. -> [w0][s0][w1][s1].. -> [w0][w1]..[s0][s1]..
std::vector<NdStep> windows_nd_plan(int dims);
// The nesting levels of the transposes, in order, that sort the level `labels` into `rank`
// order (rank[label]) by adjacent swaps: Map^k(Transpose) swaps levels k and k + 1.
std::vector<int> sorting_transposes(std::vector<int> labels, const std::vector<int>& rank);

// ZipND: the `dims` outer levels of equally shaped arrays zipped (the front end's zip_nd):
// arrays [[A]_m]_n and [[B]_m]_n give [[{A, B}]_m]_n for dims = 2.
Expr zip_nd_expr(int dims, const std::vector<Expr>& arrays);

// A point of an n-D window read by `arg` = At(i_{k-1}) o .. o At(i_0) $ window: its constant
// indices, the one applied to `window` first (the outermost dimension) first; nothing when `arg`
// is not such a chain down to `window` (a symbolic index, another base); empty for `window`.
std::optional<std::vector<int64_t>> window_point(const Expr& arg, const Expr& window);

} // namespace tessera
