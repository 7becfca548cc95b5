// tessera's public C++ API, part 5: exploring a program's variants on a device.
//
//   auto device = tessera::open_device();
//   explore::Problem problem = tessera::make_problem(device, "blur", prog, {1024, 1024});
//   explore::ExploreOptions options;
//   options.budget_s = 30;                                   // wall-clock budget, all included
//   explore::Report report = tessera::explore_program(device, problem, options);
//   const tessera::VariantInfo& best = tessera::best_variant(problem, report);
//
// Every point (variant x work-group size) is generated, built, checked against the reference
// interpreter (directly, or through the plain lowering checked on a small grid) and timed; the
// report (explore/Report.h, docs/explorer.md) has every point with its history, times and
// bandwidth. write_report / read_report store it as JSON, `tessera plot` draws it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "explore/Explorer.h"
#include "explore/Report.h"
#include "tessera/Variants.h"

namespace tessera {

// ProgramAt builds the high-level program at a grid size (extents outermost first).
// make_problem(name, build, extents, depth = 1): the exploration problem of `build` at
// `extents`: its variants up to `depth` rewrite steps, and for grids larger than the
// interpreter can check, the program on a small grid (at most 64x64 in 2-D) with its plain
// lowering, whose check makes the plain lowering the reference.
using explore::make_problem;
using explore::ProgramAt;

// The same for a program whose first input's extents are size variables (or constants equal
// to `extents`), `steps` time steps of it (iterate_steps) when steps > 1.
explore::Problem make_problem(const std::string& name, const Expr& program,
                              const std::vector<int64_t>& extents, int depth = 1, int steps = 1);
// The same with the placements that `device` allows (inputs as images, in constant memory) among
// the variants, as `tessera explore` has them on that device: the problem to explore there.
explore::Problem make_problem(runtime::Session& device, const std::string& name,
                              const Expr& program, const std::vector<int64_t>& extents,
                              int depth = 1, int steps = 1);

// explore::explore: the points within the budget, the fastest kept (see explore/Explorer.h).
explore::Report explore_program(runtime::Session& device, const explore::Problem& problem,
                                const explore::ExploreOptions& options = {});

// The variant of the report's best point; Error when no point passed its check.
const VariantInfo& best_variant(const explore::Problem& problem, const explore::Report& report);

// The work-group size of the report's best point (empty: the implementation chooses), for
// EmitOptions::local, so that an emitted kernel launches as it was measured.
std::vector<int64_t> best_local_size(const explore::Report& report);

// small_extents: a grid of at most ~4096 cells with the same number of dimensions (each extent
// at most the real one), on which the plain lowering is checked with the interpreter.
using explore::small_extents;

} // namespace tessera
