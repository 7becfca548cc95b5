#include "explore/ComputeCeiling.h"
#include "core/Format.h"

#include <iomanip>
#include <sstream>

#include "core/Error.h"

namespace tessera::explore {

double arithmetic_intensity(const Report& r) {
  if (r.footprint_bytes <= 0 || r.flops_per_output <= 0)
    return 0;
  double outputs = 0; // one sweep's outputs, from any timed point's cells and bytes per second
  for (const auto& p : r.points)
    if (p.status == PointStatus::Ok && p.gb_per_s > 0) {
      outputs = p.gcells_per_s / p.gb_per_s * r.footprint_bytes;
      break;
    }
  return outputs * r.flops_per_output / r.footprint_bytes;
}

double point_gflops(const Report& r, const PointResult& p) {
  return p.gcells_per_s * r.flops_per_output;
}

std::string point_bound(const Report& r, const PointResult& p) {
  if (r.peak_gflops <= 0 || r.flops_per_output <= 0 || r.copy_gb_per_s <= 0 ||
      p.status != PointStatus::Ok || p.median_ms <= 0)
    return "";
  double of_peak = point_gflops(r, p) / r.peak_gflops;
  double of_copy = p.gb_per_s / r.copy_gb_per_s;
  return of_peak > of_copy ? "arithmetic" : "bytes";
}

std::string compute_summary(const Report& r) {
  if (r.peak_gflops <= 0)
    return "";
  std::string text = cat("compute peak ", fixed(r.peak_gflops, 1), " GFLOP/s (", r.peak_precision,
                         " multiply-adds)");
  if (r.flops_per_output <= 0)
    return text + "; the program's flops per output are unknown";
  text += cat("; ", fixed(r.flops_per_output, 1), " flops per output");
  double intensity = arithmetic_intensity(r);
  if (intensity <= 0 || r.copy_gb_per_s <= 0)
    return text;
  double ridge = r.peak_gflops / r.copy_gb_per_s;
  return text + cat(", ", fixed(intensity, 2), " flop/byte against a ridge of ", fixed(ridge, 2),
                    " flop/byte (peak / copy bandwidth): the ceiling is ",
                    intensity < ridge ? "bytes" : "arithmetic");
}

std::string above_peak_note(const Report& r) {
  const PointResult* best = r.best ? r.find(*r.best) : nullptr;
  if (!best || best->status != PointStatus::Ok || r.peak_gflops <= 0)
    return "";
  const double share = point_gflops(r, *best) / r.peak_gflops;
  if (share <= 1.0)
    return "";
  return cat("the best's arithmetic rate is ", fixed(100 * share, 1),
             "% of the compute peak: it counts the program's flops, and the variant computes "
             "fewer (partial sums shared between outputs, or one pass per axis of a separable "
             "stencil)");
}

} // namespace tessera::explore
