// What one exploration is asked to do (budget, strategy, repeats, tolerance, resumption,
// tuning database) and the progress it reports while it runs (explore/Explorer.h).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "compile/Agreement.h"
#include "explore/Report.h"
#include "explore/Search.h"
#include "runtime/RooflineFile.h"

namespace tessera::explore {

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
  double tolerance = kTolerance; // compile/Agreement.h
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

} // namespace tessera::explore
