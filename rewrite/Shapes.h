// Expression builders for n-dimensional data layouts, the IR-level counterparts of the front
// end's slide_nd/split_nd: windows over every level, then transposes that move the window
// levels inwards. `untile` is the inverse of `tile`.
#pragma once

#include <functional>
#include <vector>

#include "core/Expr.h"
#include "core/NdExpr.h" // map_nest, zip_nd_expr

namespace tessera::rewrite {

// [n0][n1].. -> [w0][w1]..[s0][s1]..  windows of `size` with `step` in each of `dims` levels.
Expr slide_nd_expr(int dims, ArithExpr size, ArithExpr step, const Expr& x);
// [n0][n1].. -> [n0/k][n1/k]..[k][k]..   disjoint tiles.
Expr tile_expr(int dims, ArithExpr k, const Expr& x);
// [t0][t1]..[e0][e1].. -> [t0*e0][t1*e1]..   the inverse of tile_expr (any tile extents).
Expr untile_expr(int dims, const Expr& x);
// PadND: Pad(l, r, b) at each of the `dims` outer levels (the front end's pad_nd).
Expr pad_nd_expr(int dims, ArithExpr left, ArithExpr right, Boundary boundary, const Expr& x);
// [n0][n1].. -> [n0+p0][n1+p1]..: level d padded at its end by padding[d] with its last element
// (clamp), the levels without padding left alone; drop_end_expr is its inverse. Tiles with a
// remainder: the grid padded up to a tile multiple, the padded results dropped.
Expr pad_end_expr(const std::vector<int64_t>& padding, const Expr& x);
Expr drop_end_expr(const std::vector<int64_t>& padding, const Expr& x);
// Windows at every level like slide_nd_expr, with a different windowing function per level:
// level_fn(d) is applied to the d-th level.
Expr windows_nd_expr(int dims, const std::function<Expr(int)>& level_fn, const Expr& x);

} // namespace tessera::rewrite
