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

DeviceEvaluator::DeviceEvaluator(runtime::Session& session, const Problem& problem,
                                 const ExploreOptions& options, LazySpace& lazy, Workload& workload,
                                 ReportWriter& writer, std::vector<double>& reference)
    : options_(options), space_(lazy.space()), writer_(writer), costs_(options.warmup),
      measurer_(session, options, lazy, workload, writer.report(), reference,
                codegen::kernel_identifier(problem.name), [this] { return budget_left(); }) {
  for (const auto& p : report().points)
    costs_.learn(p, true);
}

std::optional<Measurement> DeviceEvaluator::result(int point) const {
  const PointResult* p = report().find(point);
  if (!p)
    return std::nullopt;
  return Measurement{p->status == PointStatus::Ok, p->median_ms, p->repeats};
}

double DeviceEvaluator::reserve() const {
  // The final confirmation (3 rounds of the finalists and the baseline) and writing the
  // report. The finalists are those measured so far and the next point (up to kFinalists):
  // a short budget is not kept for finalists that do not exist yet.
  const PointResult* base = report().find(0);
  double launch = base && base->status == PointStatus::Ok ? base->launch_s : 0.0;
  std::size_t ok = 0;
  for (const auto& p : report().points)
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
    const PointResult* p = report().find(id);
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
        measurer_.retime(*writer_.point(id), options_.repeats, &samples[id]);
        record_sweep_sizes();
      }
  } catch (const std::exception& e) {
    record_sweep_sizes();
    writer_.confirmation(cat("re-timing failed: ", e.what()));
    return finalists[0];
  }
  int best = -1;
  for (int id : ids) {
    PointResult& p = *writer_.point(id);
    const auto& s = samples[id];
    measurer_.set_timing(p, runtime::median(s), *std::min_element(s.begin(), s.end()),
                         static_cast<int>(s.size()));
    bool finalist = std::find(finalists.begin(), finalists.end(), id) != finalists.end();
    if (finalist && (best < 0 || p.median_ms < report().find(best)->median_ms))
      best = id;
  }
  writer_.confirmation(cat(ids.size() - 1, " finalists and the baseline re-timed together: ",
                           rounds, " interleaved rounds of ", options_.repeats, " launches each"));
  return best < 0 ? finalists[0] : best;
}

void DeviceEvaluator::record_sweep_sizes() {
  if (const auto& sizes = measurer_.sweep_sizes()) {
    writer_.sweep_sizes(sizes->footprint_bytes, sizes->timing_regime);
  }
}

bool DeviceEvaluator::builds_ahead() const {
  return measurer_.builds_ahead();
}

void DeviceEvaluator::build_ahead(const std::vector<int>& points) {
  measurer_.build_ahead(points);
}

Measurement DeviceEvaluator::measure(int point, int repeats) {
  PointResult* existing = writer_.point(point);
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
    existing = &writer_.add(measurer_.first_measurement(point, repeats));
    costs_.learn(*existing, false);
  }
  record_sweep_sizes();
  writer_.finished(*existing, now());
  progress();
  return {existing->status == PointStatus::Ok, existing->median_ms, existing->repeats};
}

void DeviceEvaluator::progress() const {
  if (!options_.on_progress)
    return;
  Progress p;
  p.done = report().points.size();
  p.total = space_.points.size();
  p.elapsed_s = now();
  p.budget_s = options_.budget_s;
  p.phase = phase_;
  if (const PointResult* b = report().best ? report().find(*report().best) : nullptr) {
    p.best_gb_per_s = b->gb_per_s;
    p.best_ms = b->median_ms;
  }
  if (const PointResult* b = report().find(0); b && b->status == PointStatus::Ok)
    p.baseline_ms = b->median_ms;
  options_.on_progress(p);
}

} // namespace tessera::explore
