// Several time steps of a catalog stencil in one program: the step applied k times in a row,
// each step reading the result of the previous one (the boundary is handled at every step).
#pragma once

#include <string>
#include <vector>

#include "core/Expr.h"

namespace tessera::stencils {

// step^k $ x for the one-input catalog entry `name`:
//   step(step(...step(x)))   with step = the entry's program body
// Error when the entry does not map a grid to a grid of the same type, or k < 1.
Expr iterated_stencil(const std::string& name, const std::vector<ArithExpr>& extents, int k);

// The same for any program whose result has its first input's type: the first input is the
// grid the steps update, the others (a right-hand side, say) are read unchanged by every step.
Expr iterate_program(const Expr& program, int k);

} // namespace tessera::stencils
