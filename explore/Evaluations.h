// How many stencil evaluations (applications of the step's function to a neighbourhood) a
// variant of k time steps performs: k x N for k sweeps and for diamond and parallelogram tiling
// (every point of every step computed once), more for overlapped temporal tiling (each tile
// recomputes the intermediate steps on its halo). Printed by `tessera explore --steps K`.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "explore/Explorer.h"
#include "explore/Report.h"

namespace tessera::explore {

// Nothing for variants whose count this does not know (mappings that recompute whole earlier
// steps per work-item) or programs that are not a chain of stencil steps.
std::optional<int64_t> stencil_evaluations(const Problem& problem, const VariantInfo& variant);

// Per family (k sweeps, temporal, diamond, parallelogram): the fastest measured variant's
// evaluations against k x N, with its time. Empty for a program of one step.
std::string evaluation_summary(const Report& report, const Problem& problem);

} // namespace tessera::explore
