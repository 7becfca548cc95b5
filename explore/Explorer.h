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

#include <atomic>
#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "explore/Agreement.h"
#include "explore/Report.h"
#include "explore/Search.h"
#include "explore/Space.h"
#include "explore/runtime/RooflineFile.h"
#include "explore/runtime/Session.h"

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

struct Progress {
  std::size_t done = 0, total = 0; // points measured / in the space
  double elapsed_s = 0, budget_s = 0;
  double best_gb_per_s = 0, best_ms = 0, baseline_ms = 0;
  std::string phase;
};

struct ExploreOptions {
  double budget_s = 60;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  Strategy strategy = Strategy::Halving;
  int repeats = 5;
  int warmup = 1;
  uint32_t seed = 1;
  double tolerance = kTolerance; // explore/Agreement.h
  int depth = 1;                 // recorded in the report
  std::size_t interpreter_limit = std::size_t{1} << 16;
  // How the roofline is found; empty: runtime::roofline_options_from_env() (the file in the
  // cache directory, TESSERA_REMEASURE_ROOFLINE, TESSERA_ROOFLINE_BYTES).
  std::optional<runtime::RooflineOptions> roofline;
  const std::atomic<bool>* stop = nullptr; // set (e.g. by SIGINT) to stop early
  std::function<void(const Progress&)> on_progress;
  std::function<void(const Report&)> on_checkpoint; // after every point (write it atomically)
  std::optional<Report> resume; // an earlier report of the same problem: its points are reused
  // The tuning database (explore/TuningDatabase.h): read at the start to order the search,
  // every measured point added at the end. Empty: none.
  std::filesystem::path tuning_database;
};

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
