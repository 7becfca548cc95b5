#include "explore/ReportWriter.h"

namespace tessera::explore {

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

PointResult& ReportWriter::add(PointResult point) {
  report_.points.push_back(std::move(point));
  return report_.points.back();
}

void ReportWriter::finished(PointResult& point, double now) {
  point.finished_at_s = now;
  if (point.status == PointStatus::Ok)
    report_.trace.push_back({trace_offset_ + now, point.id, point.median_ms, point.repeats});
  summarise(report_, options_.repeats);
  checkpoint(now);
}

void ReportWriter::sweep_sizes(double footprint_bytes, std::string timing_regime) {
  report_.footprint_bytes = footprint_bytes;
  report_.timing_regime = std::move(timing_regime);
}

void ReportWriter::checkpoint(double now) {
  report_.elapsed_s = now;
  report_.total_elapsed_s = trace_offset_ + now;
  if (options_.on_checkpoint)
    options_.on_checkpoint(report_);
}

} // namespace tessera::explore
