// The chain of stencil steps that the time-tiling rules match (rewrite/rules/Temporal.cpp):
//   S(S(..S(a))),  S(a) = Map^d(f) $ SlideND(2r+1, 1) $ PadND(r, r, b) $ a
// with the same f, radius and boundary in every step.
#pragma once

#include <optional>

#include "core/Expr.h"

namespace tessera::rewrite {

struct StencilSteps {
  int d = 0;
  Expr f;              // applied to each neighbourhood
  ArithExpr r;         // radius
  Boundary boundary;   // of every step's padding
  Expr input;          // the grid the first (innermost) step reads
  int count = 0;       // matched steps (at most 8)
  bool zipped = false; // constant inputs zipped to the neighbourhoods
};

// The longest chain of steps starting at e (its outermost step), or nothing.
std::optional<StencilSteps> match_stencil_steps(const Expr& e);

} // namespace tessera::rewrite
