// Expression builders for n-dimensional data layouts, the IR-level counterparts of the front
// end's slide_nd/split_nd: windows over every level, then transposes that move the window
// levels inwards. `untile` is the inverse of `tile`.
#pragma once

#include "core/Expr.h"

namespace tessera::rewrite {

// [n0][n1].. -> [w0][w1]..[s0][s1]..  windows of `size` with `step` in each of `dims` levels.
Expr slide_nd_expr(int dims, ArithExpr size, ArithExpr step, const Expr& x);
// [n0][n1].. -> [n0/k][n1/k]..[k][k]..   disjoint tiles.
Expr tile_expr(int dims, ArithExpr k, const Expr& x);
// [t0][t1]..[e0][e1].. -> [t0*e0][t1*e1]..   the inverse of tile_expr (any tile extents).
Expr untile_expr(int dims, const Expr& x);
// Map^dims(f)
Expr map_nest(int dims, Expr f, MapKind kind = MapKind::Map);

} // namespace tessera::rewrite
