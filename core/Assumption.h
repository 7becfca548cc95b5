// A condition on symbolic sizes that type checking could not decide and defers until the sizes
// are bound (core/SizeBinding.h checks them then).
#pragma once

#include <string>

#include "core/arith/ArithExpr.h"

namespace tessera {

struct Assumption {
  ArithExpr must_be_zero; // holds when this evaluates to 0
  std::string message;    // what the user is told when it does not hold
};

} // namespace tessera
