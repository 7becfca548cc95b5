// The explorer's problem: a stencil program at a grid size with its lowered variants (made by
// make_problem, explore/Variants.h), and the small grid that checks the trusted variant.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "explore/Space.h"

namespace tessera::explore {

struct Problem {
  std::string name;                  // the stencil's name (also the kernels' name)
  std::vector<int64_t> extents;      // grid size
  Expr program;                      // high-level, constant sizes
  std::vector<VariantInfo> variants; // lowered; variants[0] is the plain MapGlb lowering
  std::string enumeration;           // the enumerator's summary, for the report
  // For grids over the interpreter limit: the same stencil on a small grid, high-level and
  // with its baseline lowering (checks the trusted variant).
  Expr small_program, small_baseline;
  std::vector<int64_t> small_extents;
};

// The number of cells of a grid of `extents`.
std::size_t cells(const std::vector<int64_t>& extents);

} // namespace tessera::explore
