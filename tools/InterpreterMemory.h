// What the reference interpreter needs of host memory, for the commands that check a program on
// a whole grid (`run` up to its interpreter limit, and both `run` and `explore` on a --program
// of constant sizes, which has no smaller grid to check on).
#pragma once

#include <cstddef>
#include <string>

#include "core/Expr.h"

namespace tessera::tools {

// Host bytes of the interpreter's Data trees for `program` on `points` grid points: about 1.2 KB
// per input value and grid dimension (measured 2026-12-01: j2d5pt 1.4 KB a point, j3d7pt and
// j3d27pt 3.5 KB, HPGMG-FV's 4th-order residual with its 6 inputs 18.8 KB).
double interpreter_bytes(const Expr& program, std::size_t points);

// Error, unless the interpreter's evaluation of a fixed-size `program` (constant extents `size`)
// fits in this process's memory: it says what it needs, what there is, and that a program saved
// with size variables is checked on a small grid instead.
void check_fixed_size_interpreter(const Expr& program, std::size_t points, const std::string& size);

} // namespace tessera::tools
