#include "explore/PointMeasurer.h"

#include <algorithm>
#include <chrono>
#include <optional>

#include "compile/Execute.h"
#include "compile/KernelRunner.h"
#include "core/Error.h"
#include "explore/CacheRegime.h"
#include "explore/DeviceEvaluator.h"
#include "explore/Explorer.h"
#include "runtime/Hash.h"
#include "runtime/Timing.h"

namespace tessera::explore {

namespace {
using Clock = std::chrono::steady_clock;
} // namespace

PointMeasurer::PointMeasurer(runtime::Session& session, const ExploreOptions& options,
                             LazySpace& lazy, Workload& workload, const Report& report,
                             std::vector<double>& reference, std::string kernel_name,
                             std::function<double()> budget_left)
    : session_(session), options_(options), lazy_(lazy), space_(lazy.space()), workload_(workload),
      report_(report), reference_(reference), kernel_name_(std::move(kernel_name)),
      budget_left_(std::move(budget_left)) {}

bool PointMeasurer::far_slower(double ms, int repeats) const {
  const PointResult* best = report_.best ? report_.find(*report_.best) : nullptr;
  if (best && best->status == PointStatus::Ok && ms > 10 * best->median_ms)
    return true;
  return (options_.warmup + repeats) * ms / 1e3 > budget_left_();
}

void PointMeasurer::set_timing(PointResult& p, double median_ms, double min_ms, int repeats) const {
  p.median_ms = median_ms;
  p.min_ms = min_ms;
  p.repeats = repeats;
  double bytes = static_cast<double>(bytes_moved_);
  p.gb_per_s = median_ms > 0 ? bytes / (median_ms * 1e6) : 0;
  p.gcells_per_s = median_ms > 0 ? static_cast<double>(output_cells_) / (median_ms * 1e6) : 0;
  p.fraction_of_copy = report_.copy_gb_per_s > 0 ? p.gb_per_s / report_.copy_gb_per_s : 0;
}

codegen::KernelProgram PointMeasurer::kernel_of(const Point& point) const {
  const auto& k = space_.kernels[static_cast<std::size_t>(point.variant)];
  if (!k)
    user_error(space_.generation_errors[static_cast<std::size_t>(point.variant)]);
  if (point.local.empty())
    return *k;
  return generate_variant(space_.variants[static_cast<std::size_t>(point.variant)],
                          codegen_options(point, kernel_name_, space_.target));
}

void PointMeasurer::learn_sizes(const codegen::KernelProgram& kernel) {
  if (bytes_moved_ != 0)
    return;
  bytes_moved_ = workload_.bytes_moved(kernel);
  output_cells_ = workload_.output_cells(kernel);
  double footprint = static_cast<double>(bytes_moved_);
  CacheRegime regime =
      cache_regime(footprint, report_.cache_bytes, session_.device().max_mem_alloc_size,
                   report_.cache_upper_bound);
  sweep_sizes_ = SweepSizes{footprint, regime.note};
  if (regime.flush_bytes > 0)
    flush_.emplace(session_, regime.flush_bytes);
}

runtime::TimingOptions PointMeasurer::timing_options(int warmup, int repeats) {
  runtime::TimingOptions options{warmup, repeats, {}};
  if (flush_)
    options.before_each = [this] { flush_->flush(); };
  return options;
}

void PointMeasurer::retime(PointResult& p, int repeats, std::vector<double>* samples) {
  const Point& point = space_.points[static_cast<std::size_t>(p.id)];
  codegen::KernelProgram kernel = kernel_of(point);
  learn_sizes(kernel); // a resumed point re-timed before any new one is measured
  auto built = build_program(session_, kernel);
  auto t0 = Clock::now();
  auto timing = workload_.time(kernel, built, timing_options(options_.warmup, repeats));
  double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  p.launch_s = wall / (options_.warmup + repeats);
  if (samples)
    samples->insert(samples->end(), timing.samples_ms.begin(), timing.samples_ms.end());
  else
    set_timing(p, timing.median_ms, timing.min_ms, repeats);
}

void PointMeasurer::build_ahead(const std::vector<int>& ids) {
  if (!builds_ahead())
    return;
  std::vector<codegen::Kernel> kernels;
  for (int id : ids) {
    try {
      for (auto& k : kernel_of(space_.points[static_cast<std::size_t>(id)]).kernels)
        if (static_cast<uint64_t>(k.local_memory_bytes) <= session_.device().local_mem_size &&
            !built_ahead_ms_.count(k.source) && !session_.cache().in_memory(k.source))
          kernels.push_back(std::move(k));
    } catch (const std::exception&) {
      // Left to the point's own measurement, which says why.
    }
  }
  const auto t0 = Clock::now();
  if (!build_together(session_, kernels))
    return;
  const double share =
      std::chrono::duration<double, std::milli>(Clock::now() - t0).count() / kernels.size();
  for (const auto& k : kernels)
    built_ahead_ms_[k.source] = share;
}

PointResult PointMeasurer::first_measurement(int id, int repeats) {
  auto t0 = Clock::now();
  double built_ahead_s = 0;
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
    for (const auto& k : kernel.kernels) // its share of a build ahead
      if (auto it = built_ahead_ms_.find(k.source); it != built_ahead_ms_.end()) {
        r.build_ms += it->second;
        built_ahead_s += it->second / 1e3;
        built_ahead_ms_.erase(it);
      }
    r.build_origin = runtime::to_string(built.back().origin);
    learn_sizes(kernel);
    // One launch first: a variant whose single launch takes longer than the budget has left
    // is not checked, and one far slower than the best so far is not timed again.
    std::optional<runtime::Timing> once;
    if (!reference_.empty()) {
      once = workload_.time(kernel, built, timing_options(0, 1));
      double left = budget_left_();
      r.launch_s = once->median_ms / 1e3; // kept for the budget advice if refused
      if (once->median_ms / 1e3 > left)
        user_error(cat("not measured: one launch takes ", once->median_ms / 1e3,
                       " s, more than the ", std::max(0.0, left), " s left of the budget"));
      // A first launch may include the driver's one-time setup of the kernel (milliseconds):
      // slowness is judged on a second one, unless the first took longer than such a setup.
      if (far_slower(once->median_ms, repeats) && once->median_ms < 100)
        once = workload_.time(kernel, built, timing_options(0, 1));
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
    if (!within_tolerance(r.max_error, options_.tolerance)) {
      r.status = PointStatus::Mismatch;
      r.error = cat("output differs from the reference by ", r.max_error,
                    " (relative), more than the tolerance ", options_.tolerance);
    } else if (once && far_slower(once->median_ms, repeats)) {
      r.launch_s = once->median_ms / 1e3;
      set_timing(r, once->median_ms, once->min_ms, 1);
      r.status = PointStatus::Ok;
    } else {
      auto t1 = Clock::now();
      auto timing = workload_.time(kernel, built, timing_options(options_.warmup, repeats));
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
  r.cost_s = std::chrono::duration<double>(Clock::now() - t0).count() + built_ahead_s +
             lazy_.take_generation_seconds(point.variant);
  return r;
}

} // namespace tessera::explore
