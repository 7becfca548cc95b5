// The explorer's evaluator on one OpenCL device: what the search asks of it (estimates, the
// budget's reserve, measurements of points of a lazily materialized space) and what the run ends
// with (the finalists re-timed together with the baseline), its progress, and the helpers that
// explore() shares with it. Its concerns live apart: PointCosts learns what points cost,
// PointMeasurer builds, checks and times one point (see explore/Explorer.h for what each point
// goes through); the evaluator records what it measures through the run's ReportWriter.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "compile/Workload.h"
#include "core/Error.h"
#include "explore/ExploreOptions.h"
#include "explore/LazySpace.h"
#include "explore/PointCosts.h"
#include "explore/PointMeasurer.h"
#include "explore/Problem.h"
#include "explore/ReportWriter.h"
#include "explore/Search.h"
#include "runtime/Device.h"
#include "runtime/Hash.h"
#include "runtime/Timing.h"

namespace tessera::explore {

// The text cut to `limit` characters (an error message in a report).
std::string shorten(std::string text, std::size_t limit = 4000);

// Finalists re-timed with the baseline at the end of a run.
constexpr std::size_t kFinalists = 4;

class DeviceEvaluator : public Evaluator {
public:
  DeviceEvaluator(runtime::Session& session, const Problem& problem, const ExploreOptions& options,
                  LazySpace& lazy, Workload& workload, ReportWriter& writer,
                  std::vector<double>& reference);

  double now() const override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - options_.start).count();
  }
  bool stop_requested() const override { return options_.stop && options_.stop->load(); }
  bool measured(int point) const override { return report().find(point) != nullptr; }
  std::optional<Measurement> result(int point) const override;
  // A new phase is shown at once (the first point of a phase may take a while).
  void phase(const std::string& name) override {
    phase_ = name;
    progress();
  }
  double estimate(int point, int repeats) const override {
    return costs_.estimate(space_.points[point].variant, measured(point), repeats);
  }
  double estimate_unlisted(int repeats) const override {
    return costs_.estimate(-1, false, repeats);
  }
  // The final confirmation (3 rounds of the finalists and the baseline) and writing the report.
  double reserve() const override;
  Measurement measure(int point, int repeats) override;
  void build_ahead(const std::vector<int>& points) override;
  bool builds_ahead() const override; // on PoCL

  // Re-times the finalists and the baseline together (interleaved rounds) so that the choice
  // of the best and the speedup compare measurements taken under the same conditions. Returns
  // the fastest finalist.
  int confirm(const std::vector<int>& finalists, int baseline);
  void progress() const;

private:
  // The sizes the measurer learned from the first kernel, into the report.
  void record_sweep_sizes();
  // Seconds until the budget, less the reserve for the confirmation and the report.
  double budget_left() const { return options_.budget_s - reserve() - now(); }

  const ExploreOptions& options_;
  const Space& space_;
  const Report& report() const { return writer_.report(); }

  ReportWriter& writer_;
  std::string phase_;
  PointCosts costs_;
  PointMeasurer measurer_;
};

} // namespace tessera::explore
