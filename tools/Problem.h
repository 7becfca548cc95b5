// From a catalog stencil to what the explorer needs: the program at a size, its executable
// variants (rewrite::lowered_variants) as explore::VariantInfo, and the small grid on which
// the trusted variant is checked against the interpreter.
#pragma once

#include <string>
#include <vector>

#include "explore/Explorer.h"
#include "rewrite/Enumerate.h"
#include "rewrite/Rule.h"
#include "stencils/Catalog.h"

namespace tessera::tools {

// "tile-nd at [1] {dims=2, tile=16}"; a step without position or parameters is its name.
std::string describe_step(const rewrite::Step& step);
explore::VariantInfo variant_info(const rewrite::Variant& variant);

struct Variants {
  std::vector<explore::VariantInfo> variants; // [0] = plain MapGlb lowering
  std::string summary;                        // enumeration statistics in one line
};
// `control` sets the deadline and the progress callback (its depth is replaced by `depth`).
Variants enumerate_variants(const Expr& program, int depth, rewrite::EnumerateOptions control = {});

// A grid of at most ~4096 cells with the same number of dimensions (each extent at most the
// real one), for checking the trusted variant with the interpreter.
std::vector<int64_t> small_extents(const std::vector<int64_t>& extents);

explore::Problem make_problem(const stencils::StencilInfo& info,
                              const std::vector<int64_t>& extents, int depth,
                              rewrite::EnumerateOptions control = {});

} // namespace tessera::tools
