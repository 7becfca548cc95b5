// thomas-to-pcr and thomas-to-pcr-local: the Thomas solve of dsl/Tridiagonal.h rewritten to
// parallel cyclic reduction (TridiagonalRules.cpp). The explorer's enumerations
// (explore/Variants.h) pass them to rewrite::lowered_variants as extra exploration rules.
#pragma once

#include <vector>

#include "rewrite/Rule.h"

namespace tessera::explore {

std::vector<rewrite::Rule> tridiagonal_rules();

} // namespace tessera::explore
