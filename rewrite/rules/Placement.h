// Shared by the placement rules (Placement.cpp, ImagePlacement.cpp).
#pragma once

#include <cstddef>

#include "core/Expr.h"

namespace tessera::rewrite {

// The program (a lambda) with its input i placed in `space`: a new Param substituted for the
// old one throughout the body.
Expr with_input_placed(const Expr& program, std::size_t i, AddressSpace space);

} // namespace tessera::rewrite
