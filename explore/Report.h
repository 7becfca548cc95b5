// Exploration reports: what was explored, on which device, and every point's outcome.
//
// JSON (nlohmann/json), {"format": "tessera-report", "version": 2, ...}; see docs/explorer.md
// for every field. Reports are written atomically (a temporary file in the same directory,
// then rename), so an interrupted run leaves the previous report intact. Version 1 (each
// point's mapping a history step "mapping: ...") still loads, converted (explore/Derivation.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "compile/Agreement.h"
#include "explore/Derivation.h"
#include "explore/PointStatus.h"
#include "explore/StepsComparison.h"

namespace tessera::explore {

inline constexpr const char* kReportFormat = "tessera-report";
inline constexpr int kReportVersion = 3;       // written (3: the compute ceiling)
inline constexpr int kOldestReportVersion = 1; // the oldest read

struct PointResult {
  int id = 0;          // index of the point in the space (Space::points)
  std::string key;     // identifies the point across runs (variant program hash + parameters)
  int variant = 0;     // index in rewrite::lowered_variants
  std::string program; // Lift notation
  Derivation history;  // rewrite steps and mapping
  std::map<std::string, int64_t> params; // rewrite parameters (tile, chunk, coarsening, ...)
  std::string local = "auto";            // work-group size, "auto" or "32x8"
  std::string kernel_hash;               // runtime::hex64 of the kernel source
  int64_t local_memory_bytes = 0;

  PointStatus status = PointStatus::Failed;
  std::string error;
  double max_error = 0; // largest relative difference to the reference

  double median_ms = 0, min_ms = 0;
  int repeats = 0; // timed launches of the last measurement
  double gb_per_s = 0, gcells_per_s = 0, fraction_of_copy = 0;

  double build_ms = 0;      // 0 when the kernel came from the cache
  std::string build_origin; // "compiled", "memory cache", "disk cache"
  double check_s = 0;       // run + read back + compare
  double launch_s = 0;      // wall time of one launch while timing
  double cost_s = 0;        // everything spent on this point
  double finished_at_s = 0; // seconds since the start of the run that measured it
};

struct TraceEvent {
  double t_s = 0; // seconds since the start of the run
  int point = 0;  // PointResult::id
  double median_ms = 0;
  int repeats = 0;
};

struct StrategyResult {
  std::string name;                     // "exhaustive", "random", "halving"
  std::optional<double> time_to_5pct_s; // time until a point within 5% of the best was measured
  std::string how;  // "measured" (this run) or "replayed" (from the points' costs)
  std::string note; // why there is no time, when there is none
};

struct Report {
  std::string stencil;
  std::vector<int64_t> size;
  std::string program; // the high-level program in Lift notation

  std::string device_name, device_platform, device_description;
  double copy_gb_per_s = 0;   // the roofline (runtime/Roofline.h): best copy bandwidth
  std::size_t copy_bytes = 0; // size of each of its buffers
  std::string copy_method;    // the copy that reached it
  uint64_t cache_bytes = 0;   // the device's last-level cache (0: unknown)
  // cache_bytes is only an upper bound (runtime::cache_size_is_upper_bound): no flushes. Set by
  // the run from its roofline, not stored in the file.
  bool cache_upper_bound = false;
  std::string roofline_note;     // why the roofline's buffers are below the size asked, if they are
  double roofline_measure_s = 0; // measuring it in this run (0: from the file); not in the budget
  double footprint_bytes = 0;    // every input and the output of one sweep
  // How the times relate to the cache when a sweep is not far larger than it (CacheRegime.h);
  // empty otherwise.
  std::string timing_regime;
  // The compute ceiling (runtime/ComputePeak.h) in the inputs' precision, and the program's
  // arithmetic: user-function flops per output as the interpreter counts them (core/FlopCount.h).
  // 0: unknown (reports before version 3).
  double peak_gflops = 0;
  std::string peak_precision;  // "f32" or "f64"
  double flops_per_output = 0; // explore/ComputeCeiling.h: what follows from these
  // The problem's data fits in the last-level cache: its fractions of the copy roofline are
  // "cache-resident" (repeated sweeps run from the cache), not bounded by the roofline.
  bool cache_resident() const;
  // "cache-resident" or "of the copy roofline", after a percentage.
  std::string fraction_label() const;

  std::string date; // ISO 8601, UTC, of the last run
  double budget_s = 0;
  double elapsed_s = 0;       // wall time of the last run, setup and enumeration included
  double total_elapsed_s = 0; // over all runs of a resumed report
  int runs = 1;
  bool interrupted = false;
  bool complete = false; // every point of the space was measured
  std::string strategy = "exhaustive";
  uint32_t seed = 1;
  int repeats = 5, warmup = 1, depth = 1;

  std::string check_method;        // how outputs were checked
  double tolerance = kTolerance;   // compile/Agreement.h
  std::vector<int64_t> check_size; // grid of the interpreter check
  double check_error = 0;          // the trusted variant's error against the interpreter

  std::size_t space_variants = 0, space_points = 0, space_filtered = 0;
  // Variants generated (materialized) when the search reached them; space_points and
  // space_filtered count their points only (the others were never listed).
  std::size_t space_materialized = 0;
  std::string prior; // how the search order was made (explore/Prior.h)
  std::map<std::string, std::size_t> filtered;
  std::string enumeration; // the enumerator's summary

  std::vector<PointResult> points;   // the points measured so far, in order of first measurement
  std::optional<int> best, baseline; // PointResult::id
  double speedup = 0;                // baseline median / best median
  std::string confirmation;          // how best and baseline were re-timed for the speedup

  std::vector<StrategyResult> strategies;
  std::vector<TraceEvent> trace;
  std::optional<StepsComparison> steps; // explore --steps K: fused vs K single sweeps

  const PointResult* find(int id) const;
  PointResult* find(int id);
};

nlohmann::json report_to_json(const Report& report);
// Throws Error naming what is missing or wrong (with `source`, e.g. the file name).
Report report_from_json(const nlohmann::json& json, const std::string& source = "report");

// Writes the report atomically (temporary file + rename).
void write_report(const Report& report, const std::string& path);
// Reads and validates a report; Error for an unreadable file, bad JSON or a wrong format.
Report read_report(const std::string& path);
// The same for the text of a report file; `source` names it in errors (e.g. "'r.json'").
Report parse_report(const std::string& text, const std::string& source = "report");

// Whether data of `footprint_bytes` (every input and the output of one sweep) fits in a cache of
// `cache_bytes`: then repeated sweeps run from the cache and the roofline does not bound them.
// False when the cache size is unknown (0).
bool fits_in_cache(double footprint_bytes, uint64_t cache_bytes);
// Between 1x and kPartlyResidentFactor x the cache, a cache that keeps part of a streamed working
// set (adaptive replacement, a victim cache) serves part of each sweep: measured fractions of the
// roofline can exceed 100% (seen at 1.1x the cache of a 2-core VM: 144%).
inline constexpr double kPartlyResidentFactor = 2.0;
bool partly_in_cache(double footprint_bytes, uint64_t cache_bytes);
// "cache-resident", "partly cache-resident" or "of the copy roofline": how a report names a
// fraction of the roofline for a problem of this footprint.
std::string roofline_fraction_label(double footprint_bytes, uint64_t cache_bytes);

// "copy roofline 13.32 GB/s (...); last-level cache 480 MiB; one sweep moves 8 MiB, which fits
// in the cache: percentages are cache-resident, ...": the roofline and where the problem stands.
std::string roofline_summary(const Report& report);
// Empty unless the best point moved its bytes faster than the copy roofline; then which of the
// two reasons it is: the data sat in a cache (a sweep that fits, or nearly), or the roofline's
// copies are slower than what this device can move (a sweep far larger than the cache).
std::string above_roofline_note(const Report& report);

// "2024-05-01T12:00:00Z"
std::string utc_now();

// The text summary printed by `tessera report`: setup, best and baseline, speedup, strategies,
// the fastest points and the failures.
std::string format_report(const Report& report, std::size_t top = 10);

} // namespace tessera::explore
