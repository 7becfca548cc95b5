// The one writer of an exploration's report while it runs (explore(), explore/Explorer.cpp).
// The run's phases and its evaluator (explore/DeviceEvaluator.h) change the report only through
// it; the point measurer and the search read it. What a measured point adds (the point, its
// trace entry, the best and the baseline, the elapsed time, the checkpoint) is written here, in
// one order, and so is the checkpoint that ends the run.
#pragma once

#include <string>
#include <utility>

#include "explore/ExploreOptions.h"
#include "explore/Report.h"

namespace tessera::explore {

// Best (fastest ok point, preferring fully timed ones), baseline and speedup from the points.
void summarise(Report& report, int full_repeats);

class ReportWriter {
public:
  explicit ReportWriter(const ExploreOptions& options) : options_(options) {}

  const Report& report() const { return report_; }
  // The run's phases set what the run is (the problem, the device, the roofline, the reference,
  // the confirmation, the record) through this.
  Report& edit() { return report_; }
  Report take() { return std::move(report_); }
  // The resumed report's elapsed time, which this run's trace and total continue.
  void continue_after(double seconds) { trace_offset_ = seconds; }
  double trace_offset() const { return trace_offset_; }

  // A newly measured point, appended.
  PointResult& add(PointResult point);
  // A measured point, to be timed again in place; null when it was not measured.
  PointResult* point(int id) { return report_.find(id); }
  // The point was measured or timed again at `now` (seconds into the run): its trace entry
  // when it ran, the best and the baseline, and the checkpoint.
  void finished(PointResult& point, double now);
  // The bytes one sweep moves and how launches are timed, once known.
  void sweep_sizes(double footprint_bytes, std::string timing_regime);
  // How the finalists were confirmed (or why they could not be).
  void confirmation(std::string text) { report_.confirmation = std::move(text); }
  // The run's elapsed time at `now`, and the report handed to ExploreOptions::on_checkpoint.
  void checkpoint(double now);

private:
  const ExploreOptions& options_;
  Report report_;
  double trace_offset_ = 0;
};

} // namespace tessera::explore
