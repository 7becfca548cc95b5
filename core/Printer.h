// Printing in Lift notation, read right to left:
//   (x : [f32]_N) => Map(sum3) o Slide(3,1) o Pad(1,1,clamp) $ x
// Composition chains print with `o` and `$`; a one-parameter lambda whose body is a chain
// applied to the parameter prints as the composition itself. Unnamed parameters get names
// p0, p1, ... in order of appearance, so the text is deterministic.
#pragma once

#include <string>

#include "core/Expr.h"

namespace tessera {

// A program (a lambda over typed inputs) or any expression or function.
std::string print(const Expr& e);

} // namespace tessera
