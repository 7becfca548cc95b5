// The explorer: builds, checks and times the points of a variant space on one OpenCL device
// within a wall-clock budget and keeps the fastest.
//
// For each point: generate the kernel (sizes baked), build it (cached by source), run it once
// and compare its output with the reference, then time it (warm-up, median of repeated
// profiled launches). A point that fails anywhere is recorded with its error, never fatal.
//
// Reference: the interpreter when the grid has at most `interpreter_limit` points; otherwise
// the output of the baseline kernel (variant 0 = the plain MapGlb lowering), which is trusted
// because the same stencil's baseline on a small grid matches the interpreter first. Outputs
// agree when max |out - ref| / max(1, |ref|) <= tolerance (1e-4: the variants reassociate no
// arithmetic, so they agree to rounding; integer outputs must be equal). All-zero references
// are refused: such a check would prove nothing.
//
// Budget: wall time from `start` (give the moment before enumerating to include it), setup,
// generating, building and checking included; the copy roofline, when this run measures it (once
// per device: runtime/RooflineFile.h), is not. No point is started (no variant generated) whose
// estimated cost (from the points before it) would overrun the budget minus a reserve for the
// final confirmation. Variants are generated only when the search reaches them, in the order of
// the prior (explore/Prior.h: the tuning database's points of the device, then a cost model).
#pragma once

#include <string>
#include <vector>

#include "explore/ExploreOptions.h"
#include "explore/Problem.h"
#include "explore/Report.h"
#include "explore/Space.h"
#include "runtime/Session.h"

namespace tessera::explore {

// Explores the problem on the session's device. Throws Error only for problems with the whole
// exploration (unusable reference, a resumed report of another problem); everything about a
// single point goes into its PointResult. Stopped (options.stop) before the baseline was
// measured, it returns the report with `interrupted` set, no baseline, and no checkpoint
// written: nothing new was measured.
Report explore(runtime::Session& session, const Problem& problem, const ExploreOptions& options);

// Error unless `old` can be continued exactly by a run of `stencil` at `size` with `options`:
// the same problem, depth, strategy, seed and repeats (other values would drop or re-measure
// points), and not complete (nothing would be left to measure). `program`, when given, is the
// high-level program in Lift notation (Report::program): a report of another program of the
// same name and size (another --program file, another --steps) is refused too. The device is
// checked by explore().
void check_resumable(const Report& old, const std::string& stencil,
                     const std::vector<int64_t>& size, const ExploreOptions& options,
                     const std::string& program = "");

// Key identifying a point across runs: "v<variant> local=<local> #<hash of the program text>".
std::string point_key(const Point& point, const VariantInfo& variant);

} // namespace tessera::explore
