// Builders of n-dimensional nests over the IR, used by the rewrite rules and by the code
// generator (which stores arrays of tuples as one buffer per component and zips them back).
#pragma once

#include <vector>

#include "core/Expr.h"

namespace tessera {

// Map^dims(f): f applied at the `dims`-th level (Map(Map(f)) for dims = 2).
Expr map_nest(int dims, Expr f, MapKind kind = MapKind::Map);
// ZipND: the `dims` outer levels of equally shaped arrays zipped (the front end's zip_nd):
// arrays [[A]_m]_n and [[B]_m]_n give [[{A, B}]_m]_n for dims = 2.
Expr zip_nd_expr(int dims, const std::vector<Expr>& arrays);

} // namespace tessera
