// A program with every Pad's boundary replaced: the same stencil under clamp, mirror, wrap,
// constant or antisymmetric boundaries (`tessera sweep --boundary`, the distributed tests), or
// under a fixed halo (with_fixed_halo).
#pragma once

#include <string>

#include "core/Expr.h"

namespace tessera::stencils {

// "clamp", "mirror", "wrap", "antisymmetric", "constant" (the value 0), "constant(V)" (V a
// number: the element type of the grid decides its kind when it is applied) or "fixed" (the
// fixed halo). Error listing the kinds otherwise.
Boundary parse_boundary(const std::string& text);

// `program` with the boundary of every Pad replaced by `boundary` (a constant's value converted
// to the element type of the Pad's array: its grid's element). Error when the program pads
// nothing. The fixed boundary is no Pad's: with_boundary(program, Boundary::fixed()) is
// with_fixed_halo(program).
Expr with_boundary(const Expr& program, const Boundary& boundary);

// `program`, one step of a point stencil on its one grid input as the catalog builds it,
//   x => Map^d(f) $ SlideND(2r+1, 1) $ PadND(r, r, b) $ x,
// under the benchmarks' fixed halo instead of b (dsl/FixedHalo.h): the cells within r of the
// edge keep their value, f is applied to the others. Error for any other program, or a grid of
// symbolic extents (bind them first).
Expr with_fixed_halo(const Expr& program);

} // namespace tessera::stencils
