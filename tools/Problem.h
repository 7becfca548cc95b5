// From a catalog stencil to what the explorer needs: the program at a size, its executable
// variants and the small grid on which the trusted variant is checked against the interpreter
// (the public API's tessera/Explore.h and tessera/Variants.h, used by the commands).
#pragma once

#include <string>
#include <vector>

#include "stencils/Catalog.h"
#include "tessera/Explore.h"
#include "tessera/Variants.h"
#include "tools/ProgramSource.h"

namespace tessera::tools {

using tessera::describe_step;
using tessera::enumerate_variants;
using tessera::small_extents;
using tessera::variant_info;
using Variants = tessera::VariantList;

// `control`: the enumeration's deadline and progress callback (explore::enumerate_variants).
// A fixed-size program (ProgramSource::fixed_size) is its own small program.
explore::Problem make_problem(const ProgramSource& source, const std::vector<int64_t>& extents,
                              int depth, rewrite::EnumerateOptions control = {});

} // namespace tessera::tools
