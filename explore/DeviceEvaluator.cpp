#include "explore/DeviceEvaluator.h"

#include <algorithm>
#include <map>
#include <set>

#include "codegen/Names.h"
#include "core/Error.h"

namespace tessera::explore {

std::string shorten(std::string text, std::size_t limit) {
  if (text.size() > limit)
    text = text.substr(0, limit) + "\n... (" + std::to_string(text.size() - limit) +
           " more characters)";
  return text;
}

// Best (fastest ok point, preferring fully timed ones), baseline and speedup from the points.
void summarise(Report& report, int full_repeats) {
  report.baseline.reset();
  report.best.reset();
  report.speedup = 0;
  if (report.find(0))
    report.baseline = 0;
  const PointResult* best = nullptr;
  for (int pass = 0; pass < 2 && !best; ++pass)
    for (const auto& p : report.points) {
      if (p.status != PointStatus::Ok || (pass == 0 && p.repeats < full_repeats))
        continue;
      if (!best || p.median_ms < best->median_ms)
        best = &p;
    }
  if (best)
    report.best = best->id;
  const PointResult* base = report.baseline ? report.find(*report.baseline) : nullptr;
  if (best && base && base->status == PointStatus::Ok && best->median_ms > 0)
    report.speedup = base->median_ms / best->median_ms;
}

DeviceEvaluator::DeviceEvaluator(runtime::Session& session, const Problem& problem,
                                 const ExploreOptions& options, LazySpace& lazy, Workload& workload,
                                 Report& report, std::vector<double>& reference,
                                 double trace_offset)
    : options_(options), space_(lazy.space()), report_(report), trace_offset_(trace_offset),
      costs_(options.warmup),
      measurer_(session, options, lazy, workload, report, reference,
                codegen::kernel_identifier(problem.name), [this] { return budget_left(); }) {
  for (const auto& p : report_.points)
    costs_.learn(p, true);
}

std::optional<Measurement> DeviceEvaluator::result(int point) const {
  const PointResult* p = report_.find(point);
  if (!p)
    return std::nullopt;
  return Measurement{p->status == PointStatus::Ok, p->median_ms, p->repeats};
}

double DeviceEvaluator::reserve() const {
  // The final confirmation (3 rounds of the finalists and the baseline) and writing the
  // report. The finalists are those measured so far and the next point (up to kFinalists):
  // a short budget is not kept for finalists that do not exist yet.
  const PointResult* base = report_.find(0);
  double launch = base && base->status == PointStatus::Ok ? base->launch_s : 0.0;
  std::size_t ok = 0;
  for (const auto& p : report_.points)
    ok += p.status == PointStatus::Ok && p.id != 0;
  const std::size_t finalists = std::min(kFinalists, ok + 1);
  return 3.0 * static_cast<double>(finalists + 1) * (options_.warmup + options_.repeats) * launch +
         0.5 + 0.01 * options_.budget_s;
}

int DeviceEvaluator::confirm(const std::vector<int>& finalists, int baseline) {
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
        measurer_.retime(*report_.find(id), options_.repeats, &samples[id]);
        record_sweep_sizes();
      }
  } catch (const std::exception& e) {
    record_sweep_sizes();
    report_.confirmation = cat("re-timing failed: ", e.what());
    return finalists[0];
  }
  int best = -1;
  for (int id : ids) {
    PointResult& p = *report_.find(id);
    const auto& s = samples[id];
    measurer_.set_timing(p, runtime::median(s), *std::min_element(s.begin(), s.end()),
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

void DeviceEvaluator::record_sweep_sizes() {
  if (const auto& sizes = measurer_.sweep_sizes()) {
    report_.footprint_bytes = sizes->footprint_bytes;
    report_.timing_regime = sizes->timing_regime;
  }
}

Measurement DeviceEvaluator::measure(int point, int repeats) {
  PointResult* existing = report_.find(point);
  if (existing) {
    if (existing->status == PointStatus::Ok) {
      try {
        measurer_.retime(*existing, repeats, nullptr);
      } catch (const std::exception& e) {
        existing->status = PointStatus::Failed;
        existing->error = shorten(cat("re-timing failed: ", e.what()));
      }
    }
  } else {
    report_.points.push_back(measurer_.first_measurement(point, repeats));
    existing = &report_.points.back();
    costs_.learn(*existing, false);
  }
  record_sweep_sizes();
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

void DeviceEvaluator::progress() const {
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

} // namespace tessera::explore
