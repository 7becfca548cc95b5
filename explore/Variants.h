// From a high-level program to the explorer's problem: its executable rewrite variants
// (rewrite::lowered_variants) as VariantInfo, numbered, variant 0 the plain MapGlb lowering.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "explore/Explorer.h"
#include "explore/Space.h"
#include "rewrite/Rule.h"

namespace tessera::explore {

// "tile-nd at [1] {dims=2, tile=16}"; a step without position or parameters is its name.
std::string describe_step(const rewrite::Step& step);
VariantInfo variant_info(const rewrite::Variant& variant);

struct Variants {
  std::vector<VariantInfo> variants; // [0] = plain MapGlb lowering
  std::string summary;               // enumeration statistics in one line
};
Variants enumerate_variants(const Expr& program, int depth);

// A grid of at most ~4096 cells with the same number of dimensions (each extent at most the
// real one), for checking the trusted variant with the interpreter.
std::vector<int64_t> small_extents(const std::vector<int64_t>& extents);

// A program of the given extents (constant sizes): a catalog entry's or an operator's builder.
using ProgramBuilder = std::function<Expr(const std::vector<ArithExpr>&)>;
// The explorer's problem: the program at `extents`, its variants at `depth`, and the same
// program on small_extents(extents) with its default lowering for the interpreter check.
Problem make_problem(const std::string& name, const std::vector<int64_t>& extents,
                     const ProgramBuilder& build, int depth);

} // namespace tessera::explore
