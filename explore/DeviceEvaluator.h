// The explorer's evaluator: builds, checks and times points of a lazily materialized space on
// one OpenCL device (see explore/Explorer.h for what each point goes through), and the helpers
// that explore() shares with it.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "core/Error.h"
#include "explore/Explorer.h"
#include "explore/LazySpace.h"
#include "explore/Search.h"
#include "explore/Workload.h"
#include "explore/runtime/Device.h"
#include "explore/runtime/Hash.h"
#include "explore/runtime/Timing.h"

namespace tessera::explore {

// A valid OpenCL C identifier for kernels of the problem's name.
std::string kernel_identifier(const std::string& name);
std::size_t cells(const std::vector<int64_t>& extents);
// The text cut to `limit` characters (an error message in a report).
std::string shorten(std::string text, std::size_t limit = 4000);
// Best (fastest ok point, preferring fully timed ones), baseline and speedup from the points.
void summarise(Report& report, int full_repeats);

// Finalists re-timed with the baseline at the end of a run.
constexpr std::size_t kFinalists = 4;

class DeviceEvaluator : public Evaluator {
  using Clock = std::chrono::steady_clock;

public:
  DeviceEvaluator(runtime::Session& session, const Problem& problem, const ExploreOptions& options,
                  LazySpace& lazy, Workload& workload, Report& report,
                  std::vector<double>& reference, double trace_offset)
      : session_(session), problem_(problem), options_(options), lazy_(lazy), space_(lazy.space()),
        workload_(workload), report_(report), reference_(reference), trace_offset_(trace_offset),
        kernel_name_(kernel_identifier(problem.name)) {
    for (const auto& p : report_.points)
      learn(p, true);
  }

  double now() const override {
    return std::chrono::duration<double>(Clock::now() - options_.start).count();
  }
  bool stop_requested() const override { return options_.stop && options_.stop->load(); }
  bool measured(int point) const override { return report_.find(point) != nullptr; }
  std::optional<Measurement> result(int point) const override {
    const PointResult* p = report_.find(point);
    if (!p)
      return std::nullopt;
    return Measurement{p->status == PointStatus::Ok, p->median_ms, p->repeats};
  }
  // A new phase is shown at once (the first point of a phase may take a while).
  void phase(const std::string& name) override {
    phase_ = name;
    progress();
  }

  double estimate(int point, int repeats) const override {
    return estimate_for(space_.points[point].variant, measured(point), repeats);
  }
  double estimate_unlisted(int repeats) const override { return estimate_for(-1, false, repeats); }

  // A point of variant v (-1: one not generated yet), measured before or not.
  double estimate_for(int v, bool measured, int repeats) const {
    double launch = launch_of_variant_.count(v) ? launch_of_variant_.at(v)
                    : launches_                 ? launch_sum_ / launches_
                                                : 0.05;
    double cost = (options_.warmup + repeats) * launch;
    if (!measured) {
      double build = built_variants_.count(v) ? 0.0 : builds_ ? build_sum_ / builds_ : 1.0;
      double check = checks_ ? check_sum_ / checks_ : 2 * launch + 0.05;
      cost += build + check + (checks_ ? overhead_sum_ / checks_ : 0.02);
    }
    return cost;
  }

  double reserve() const override {
    // The final confirmation (3 rounds of the finalists and the baseline) and writing the
    // report. The finalists are those measured so far and the next point (up to kFinalists):
    // a short budget is not kept for finalists that do not exist yet.
    const PointResult* base = report_.find(0);
    double launch = base && base->status == PointStatus::Ok ? base->launch_s : 0.0;
    std::size_t ok = 0;
    for (const auto& p : report_.points)
      ok += p.status == PointStatus::Ok && p.id != 0;
    const std::size_t finalists = std::min(kFinalists, ok + 1);
    return 3.0 * static_cast<double>(finalists + 1) * (options_.warmup + options_.repeats) *
               launch +
           0.5 + 0.01 * options_.budget_s;
  }

  // Re-times the finalists and the baseline together (interleaved rounds) so that the choice
  // of the best and the speedup compare measurements taken under the same conditions. Returns
  // the fastest finalist.
  int confirm(const std::vector<int>& finalists, int baseline) {
    std::vector<int> ids = finalists;
    if (std::find(ids.begin(), ids.end(), baseline) == ids.end())
      ids.push_back(baseline);
    std::erase_if(ids, [&](int id) {
      const PointResult* p = report_.find(id);
      return !p || p->status != PointStatus::Ok;
    });
    if (ids.size() < 2 || finalists.empty())
      return finalists.empty() ? baseline : finalists[0];
    std::map<int, std::vector<double>> samples;
    const int rounds = 3;
    try {
      for (int r = 0; r < rounds; ++r)
        for (int id : ids) {
          if (stop_requested())
            return finalists[0];
          retime(*report_.find(id), options_.repeats, &samples[id]);
        }
    } catch (const std::exception& e) {
      report_.confirmation = cat("re-timing failed: ", e.what());
      return finalists[0];
    }
    int best = -1;
    for (int id : ids) {
      PointResult& p = *report_.find(id);
      const auto& s = samples[id];
      set_timing(p, runtime::median(s), *std::min_element(s.begin(), s.end()),
                 static_cast<int>(s.size()));
      bool finalist = std::find(finalists.begin(), finalists.end(), id) != finalists.end();
      if (finalist && (best < 0 || p.median_ms < report_.find(best)->median_ms))
        best = id;
    }
    report_.confirmation =
        cat(ids.size() - 1, " finalists and the baseline re-timed together: ", rounds,
            " interleaved rounds of ", options_.repeats, " launches each");
    return best < 0 ? finalists[0] : best;
  }

  Measurement measure(int point, int repeats) override {
    PointResult* existing = report_.find(point);
    if (existing) {
      if (existing->status == PointStatus::Ok) {
        try {
          retime(*existing, repeats, nullptr);
        } catch (const std::exception& e) {
          existing->status = PointStatus::Failed;
          existing->error = shorten(cat("re-timing failed: ", e.what()));
        }
      }
    } else {
      report_.points.push_back(first_measurement(point, repeats));
      existing = &report_.points.back();
      learn(*existing, false);
    }
    existing->finished_at_s = now();
    if (existing->status == PointStatus::Ok)
      report_.trace.push_back(
          {trace_offset_ + existing->finished_at_s, point, existing->median_ms, existing->repeats});
    summarise(report_, options_.repeats);
    report_.elapsed_s = now();
    report_.total_elapsed_s = trace_offset_ + report_.elapsed_s;
    if (options_.on_checkpoint)
      options_.on_checkpoint(report_);
    progress();
    return {existing->status == PointStatus::Ok, existing->median_ms, existing->repeats};
  }

  void progress() const {
    if (!options_.on_progress)
      return;
    Progress p;
    p.done = report_.points.size();
    p.total = space_.points.size();
    p.elapsed_s = now();
    p.budget_s = options_.budget_s;
    p.phase = phase_;
    if (const PointResult* b = report_.best ? report_.find(*report_.best) : nullptr) {
      p.best_gb_per_s = b->gb_per_s;
      p.best_ms = b->median_ms;
    }
    if (const PointResult* b = report_.find(0); b && b->status == PointStatus::Ok)
      p.baseline_ms = b->median_ms;
    options_.on_progress(p);
  }

private:
  void learn(const PointResult& p, bool resumed) {
    if (!resumed && !built_variants_.count(p.variant) && p.build_ms > 0) {
      build_sum_ += p.build_ms / 1e3;
      ++builds_;
    }
    if (!p.kernel_hash.empty())
      built_variants_.insert(p.variant);
    if (p.status == PointStatus::Ok) {
      launch_of_variant_[p.variant] = p.launch_s;
      launch_sum_ += p.launch_s;
      ++launches_;
      if (!resumed) {
        check_sum_ += p.check_s;
        double parts = p.build_ms / 1e3 + p.check_s + p.launch_s * (options_.warmup + p.repeats);
        overhead_sum_ += std::max(0.0, p.cost_s - parts);
        ++checks_;
      }
    }
  }

  // Whether a variant whose one launch took `ms` is not worth `repeats` more: over 10 times
  // slower than the best so far, or its launches would not fit in what is left of the budget.
  bool far_slower(double ms, int repeats) const {
    const PointResult* best = report_.best ? report_.find(*report_.best) : nullptr;
    if (best && best->status == PointStatus::Ok && ms > 10 * best->median_ms)
      return true;
    return (options_.warmup + repeats) * ms / 1e3 > budget_left();
  }

  // Seconds until the budget, less the reserve for the confirmation and the report.
  double budget_left() const { return options_.budget_s - reserve() - now(); }

  void set_timing(PointResult& p, double median_ms, double min_ms, int repeats) const {
    p.median_ms = median_ms;
    p.min_ms = min_ms;
    p.repeats = repeats;
    double bytes = static_cast<double>(bytes_moved_);
    p.gb_per_s = median_ms > 0 ? bytes / (median_ms * 1e6) : 0;
    p.gcells_per_s = median_ms > 0 ? static_cast<double>(output_cells_) / (median_ms * 1e6) : 0;
    p.fraction_of_copy = report_.copy_gb_per_s > 0 ? p.gb_per_s / report_.copy_gb_per_s : 0;
  }

  codegen::KernelProgram kernel_of(const Point& point) const {
    const auto& k = space_.kernels[static_cast<std::size_t>(point.variant)];
    if (!k)
      user_error(space_.generation_errors[static_cast<std::size_t>(point.variant)]);
    if (point.local.empty())
      return *k;
    return codegen::generate_program(
        space_.variants[static_cast<std::size_t>(point.variant)].program,
        codegen_options(point, kernel_name_));
  }

  // Bytes and cells of one sweep, from the first kernel built (the same for every variant).
  void learn_sizes(const codegen::KernelProgram& kernel) {
    if (bytes_moved_ != 0)
      return;
    bytes_moved_ = workload_.bytes_moved(kernel);
    output_cells_ = workload_.output_cells(kernel);
    report_.footprint_bytes = static_cast<double>(bytes_moved_);
  }

  void retime(PointResult& p, int repeats, std::vector<double>* samples) {
    const Point& point = space_.points[static_cast<std::size_t>(p.id)];
    codegen::KernelProgram kernel = kernel_of(point);
    learn_sizes(kernel); // a resumed point re-timed before any new one is measured
    auto built = build_program(session_, kernel);
    auto t0 = Clock::now();
    auto timing = workload_.time(kernel, built, {options_.warmup, repeats});
    double wall = std::chrono::duration<double>(Clock::now() - t0).count();
    p.launch_s = wall / (options_.warmup + repeats);
    if (samples)
      samples->insert(samples->end(), timing.samples_ms.begin(), timing.samples_ms.end());
    else
      set_timing(p, timing.median_ms, timing.min_ms, repeats);
  }

  PointResult first_measurement(int id, int repeats) {
    auto t0 = Clock::now();
    const Point& point = space_.points[static_cast<std::size_t>(id)];
    const VariantInfo& variant = space_.variants[static_cast<std::size_t>(point.variant)];
    PointResult r;
    r.id = id;
    r.key = point_key(point, variant);
    r.variant = point.variant;
    r.program = variant.text;
    r.history = variant.history;
    r.params = variant.params;
    r.local = point.local_text();
    try {
      codegen::KernelProgram kernel = kernel_of(point);
      std::string sources;
      r.local_memory_bytes = 0;
      for (const auto& k : kernel.kernels) {
        sources += k.source;
        r.local_memory_bytes = std::max(r.local_memory_bytes, k.local_memory_bytes);
      }
      r.kernel_hash = runtime::hex64(runtime::fnv1a64(sources));
      const auto& device = session_.device();
      if (static_cast<uint64_t>(r.local_memory_bytes) > device.local_mem_size)
        user_error(cat("the kernel needs ", r.local_memory_bytes,
                       " bytes of local memory, the device has ", device.local_mem_size));
      auto built = build_program(session_, kernel);
      r.build_ms = 0;
      for (const auto& b : built)
        r.build_ms += b.build_ms;
      r.build_origin = runtime::to_string(built.back().origin);
      learn_sizes(kernel);
      // One launch first: a variant whose single launch takes longer than the budget has left
      // is not checked, and one far slower than the best so far is not timed again.
      std::optional<runtime::Timing> once;
      if (!reference_.empty()) {
        once = workload_.time(kernel, built, {0, 1});
        double left = budget_left();
        r.launch_s = once->median_ms / 1e3; // kept for the budget advice if refused
        if (once->median_ms / 1e3 > left)
          user_error(cat("not measured: one launch takes ", once->median_ms / 1e3,
                         " s, more than the ", std::max(0.0, left), " s left of the budget"));
        // A first launch may include the driver's one-time setup of the kernel (milliseconds):
        // slowness is judged on a second one, unless the first took longer than such a setup.
        if (far_slower(once->median_ms, repeats) && once->median_ms < 100)
          once = workload_.time(kernel, built, {0, 1});
      }
      auto c0 = Clock::now();
      if (reference_.empty()) {
        // The trusted variant's output becomes the reference (large grids).
        std::vector<double> out = workload_.run(kernel, built);
        if (!has_nonzero(out))
          user_error("the trusted variant's output is all zeros: checking against it would "
                     "prove nothing");
        reference_ = std::move(out);
        r.max_error = 0;
      } else {
        r.max_error = workload_.run_and_compare(kernel, built, reference_);
      }
      r.check_s = std::chrono::duration<double>(Clock::now() - c0).count();
      if (!(r.max_error <= options_.tolerance)) {
        r.status = PointStatus::Mismatch;
        r.error = cat("output differs from the reference by ", r.max_error,
                      " (relative), more than the tolerance ", options_.tolerance);
      } else if (once && far_slower(once->median_ms, repeats)) {
        r.launch_s = once->median_ms / 1e3;
        set_timing(r, once->median_ms, once->min_ms, 1);
        r.status = PointStatus::Ok;
      } else {
        auto t1 = Clock::now();
        auto timing = workload_.time(kernel, built, {options_.warmup, repeats});
        double wall = std::chrono::duration<double>(Clock::now() - t1).count();
        r.launch_s = wall / (options_.warmup + repeats);
        set_timing(r, timing.median_ms, timing.min_ms, repeats);
        r.status = PointStatus::Ok;
      }
    } catch (const std::exception& e) {
      r.status = PointStatus::Failed;
      r.error = shorten(e.what());
    }
    // Generating the variant's kernel (when the search reached it) is part of its first point.
    r.cost_s = std::chrono::duration<double>(Clock::now() - t0).count() +
               lazy_.take_generation_seconds(point.variant);
    return r;
  }

  runtime::Session& session_;
  const Problem& problem_;
  const ExploreOptions& options_;
  LazySpace& lazy_;
  const Space& space_;
  Workload& workload_;
  Report& report_;
  std::vector<double>& reference_;
  double trace_offset_;
  std::string kernel_name_;
  std::string phase_;
  std::size_t bytes_moved_ = 0, output_cells_ = 0;

  std::set<int> built_variants_;
  std::map<int, double> launch_of_variant_;
  double build_sum_ = 0, launch_sum_ = 0, check_sum_ = 0, overhead_sum_ = 0;
  int builds_ = 0, launches_ = 0, checks_ = 0;
};

} // namespace tessera::explore
