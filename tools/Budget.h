// What `tessera explore` says about its budget after a run: how much of the space it measured,
// what a point cost at this size, and what budget would measure every point (or enumerate every
// variant) — so that "1 of 261 points" never stands without an explanation.
#pragma once

#include <string>

#include "explore/Explorer.h"
#include "explore/Report.h"

namespace tessera::tools {

std::size_t ok_points(const explore::Report& report);
std::string first_line(const std::string& text);

// Lines starting "note: " (empty when the budget was enough): the enumeration was cut at its
// share of the budget (`enumeration_s`), or points were left unmeasured, with the budget that
// would measure all of them.
std::string budget_advice(const explore::Report& report, const explore::Problem& problem,
                          double enumeration_s);

} // namespace tessera::tools
