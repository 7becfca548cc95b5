// Matching the argument of a stencil's computing map: neighbourhoods of one input
// (SlideND(n, 1) $ x, behind any chain of layout calls), or several inputs zipped together.
#pragma once

#include <optional>
#include <vector>

#include "core/Expr.h"

namespace tessera::rewrite {

// Finds x and n such that `a` is SlideND(n, 1) $ x over d levels.
bool match_slide_nd(const Expr& a, int d, Expr* x, ArithExpr* n);
// The components of ZipND(parts..) over d levels, or nothing.
std::optional<std::vector<Expr>> match_zip_nd(const Expr& a, int d);

// One input of a stencil: its neighbourhoods SlideND(window, 1) $ base, or the plain grid
// `base` (a right-hand side, coefficients) when it has no window.
struct StencilInput {
  Expr base;
  std::optional<ArithExpr> window;
};
// The inputs of `a`: one windowed input, or the components of a ZipND of which at least one
// is windowed (`zipped` is then true). Nothing when `a` is neither.
std::optional<std::vector<StencilInput>> match_stencil_inputs(const Expr& a, int d, bool* zipped);

} // namespace tessera::rewrite
