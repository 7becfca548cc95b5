// Measuring one point of the explorer's space on a device: its kernel generated (with the
// point's work-group) and built, its output checked against the reference (the trusted
// variant's output becomes the reference when there is none yet), and its launches timed; and
// timing a measured point again. What the explorer does with the results (the search, the
// report, the finalists' confirmation) is DeviceEvaluator's.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "compile/Workload.h"
#include "explore/ExploreOptions.h"
#include "explore/LazySpace.h"
#include "explore/Report.h"
#include "runtime/CacheFlush.h"

namespace tessera::explore {

class PointMeasurer {
public:
  // `budget_left`: seconds left of the budget for measuring (a point whose one launch takes
  // longer is not checked; one whose launches would not fit is not timed again).
  PointMeasurer(runtime::Session& session, const ExploreOptions& options, LazySpace& lazy,
                Workload& workload, const Report& report, std::vector<double>& reference,
                std::string kernel_name, std::function<double()> budget_left);

  // Builds, checks and times point `id` with `repeats` launches. Never throws: a failure is
  // the result's status and error.
  PointResult first_measurement(int id, int repeats);
  // Builds the kernels of points `ids` as one program where that pays (compile/KernelRunner.h's
  // build_together: PoCL); their first measurements take them from the session's cache, each
  // with its share of this build's time as its build time. A point whose kernel cannot be
  // generated is left to its measurement, which reports why.
  void build_ahead(const std::vector<int>& ids);
  // Whether build_ahead builds anything: on PoCL, which parses and links a program in its build
  // and compiles each kernel at its first launch (another driver compiles every kernel of a
  // program in its build).
  bool builds_ahead() const { return session_.device().is_pocl(); }
  // Times a measured point again with `repeats` launches: into the point, or (with `samples`)
  // the launches' times appended there, the point left as it was.
  void retime(PointResult& p, int repeats, std::vector<double>* samples);
  // A point's timing and what follows from it (bandwidth, cells per second, share of copy).
  void set_timing(PointResult& p, double median_ms, double min_ms, int repeats) const;
  // The bytes one sweep moves and how launches are timed (CacheRegime.h), known once a point
  // was measured: the evaluator, which writes the report, records them there.
  struct SweepSizes {
    double footprint_bytes = 0;
    std::string timing_regime;
  };
  const std::optional<SweepSizes>& sweep_sizes() const { return sweep_sizes_; }

private:
  codegen::KernelProgram kernel_of(const Point& point) const;
  // Bytes and cells of one sweep, from the first kernel built (the same for every variant), and
  // with them whether launches are timed after a cache flush (CacheRegime.h).
  void learn_sizes(const codegen::KernelProgram& kernel);
  // Warm-up launches, then `repeats` timed ones, each after a flush when the regime asks.
  runtime::TimingOptions timing_options(int warmup, int repeats);
  // Whether a variant whose one launch took `ms` is not worth `repeats` more: over 10 times
  // slower than the best so far, or its launches would not fit in what is left of the budget.
  bool far_slower(double ms, int repeats) const;

  runtime::Session& session_;
  const ExploreOptions& options_;
  LazySpace& lazy_;
  const Space& space_;
  Workload& workload_;
  const Report& report_;
  std::vector<double>& reference_;
  std::string kernel_name_;
  std::function<double()> budget_left_;
  std::size_t bytes_moved_ = 0, output_cells_ = 0;
  std::optional<SweepSizes> sweep_sizes_;
  std::optional<runtime::CacheFlush> flush_;
  std::map<std::string, double> built_ahead_ms_; // a kernel source's share of a build ahead
};

} // namespace tessera::explore
