// From a catalog stencil to what the explorer needs: the program at a size, its executable
// variants (rewrite::lowered_variants) as explore::VariantInfo, and the small grid on which
// the trusted variant is checked against the interpreter.
#pragma once

#include <string>
#include <vector>

#include "explore/Explorer.h"
#include "explore/Variants.h"
#include "stencils/Catalog.h"

namespace tessera::tools {

explore::Problem make_problem(const stencils::StencilInfo& info,
                              const std::vector<int64_t>& extents, int depth);

} // namespace tessera::tools
