// The catalog of ready stencils, written with the public DSL in high-level form (Map, Reduce,
// Slide, Pad, Zip). Each entry builds its program for a given grid size; rewriting lowers it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/Expr.h"

namespace tessera::stencils {

struct StencilInfo {
  std::string name;
  std::string description;
  int dims = 1;
  int inputs = 1;
  // Builds the program for a grid of the given extents (one per dimension).
  std::function<Expr(const std::vector<ArithExpr>& extents)> build;
};

const std::vector<StencilInfo>& catalog();
// The entry with this name; Error listing the available names when there is none.
const StencilInfo& find_stencil(const std::string& name);

} // namespace tessera::stencils
