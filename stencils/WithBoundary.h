// A program with every Pad's boundary replaced: the same stencil under clamp, mirror, wrap,
// constant or antisymmetric boundaries (`tessera sweep --boundary`, the distributed tests).
#pragma once

#include <string>

#include "core/Expr.h"

namespace tessera::stencils {

// "clamp", "mirror", "wrap", "antisymmetric", "constant" (the value 0) or "constant(V)" (V a
// number: the element type of the grid decides its kind when it is applied). Error listing
// the kinds otherwise.
Boundary parse_boundary(const std::string& text);

// `program` with the boundary of every Pad replaced by `boundary` (a constant's value converted
// to the element type of the Pad's array: its grid's element). Error when the program pads
// nothing.
Expr with_boundary(const Expr& program, const Boundary& boundary);

} // namespace tessera::stencils
