// A report as text for people (`tessera report`, the end of `tessera explore`): the roofline
// and the points, best first (explore/Report.h).
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/Bytes.h"
#include "core/Error.h"
#include "core/Format.h"
#include "explore/ComputeCeiling.h"
#include "explore/Report.h"
#include "explore/Space.h"

namespace tessera::explore {

namespace {

std::string describe_point(const PointResult& p) {
  std::string what = cat("v", p.variant, " local=", p.local);
  if (p.history.mapping)
    what += " [" + rewrite::describe(*p.history.mapping) + "]";
  for (const auto& [k, v] : p.params)
    what += cat(" ", k, "=", v);
  return what;
}

std::string timing_line(const PointResult& p, const Report& r) {
  std::string bound = point_bound(r, p);
  return cat(fixed(p.median_ms, 3), " ms  ", fixed(p.gb_per_s, 2), " GB/s  ",
             fixed(p.gcells_per_s, 3), " GCells/s  ", fixed(100 * p.fraction_of_copy, 1), "% ",
             r.fraction_label(),
             bound.empty() ? std::string()
                           : cat("  ", fixed(point_gflops(r, p), 1), " GFLOP/s (",
                                 fixed(100 * point_gflops(r, p) / r.peak_gflops, 1),
                                 "% of peak; bound by ", bound, ")"),
             "  (median of ", p.repeats, ")");
}

} // namespace

namespace {

const PointResult* fastest_ok(const Report& r) {
  const PointResult* fastest = nullptr;
  for (const auto& p : r.points)
    if (p.status == PointStatus::Ok && (!fastest || p.median_ms < fastest->median_ms))
      fastest = &p;
  return fastest;
}

} // namespace

std::string roofline_summary(const Report& r) {
  std::string text = cat("copy roofline ", fixed(r.copy_gb_per_s, 2), " GB/s");
  if (!r.copy_method.empty())
    text += cat(" (", r.copy_method, ", buffers of ", format_bytes(r.copy_bytes), ")");
  if (!r.roofline_note.empty())
    text += cat(" [", r.roofline_note, "]");
  if (r.roofline_measure_s > 0)
    text += cat(" [measured in this run in ", fixed(r.roofline_measure_s, 1),
                " s, outside the budget; kept for this device's later runs]");
  if (r.cache_bytes == 0)
    return text + "; last-level cache size unknown";
  text += cat("; last-level cache ", format_bytes(r.cache_bytes), "; one sweep moves ",
              format_bytes(static_cast<uint64_t>(r.footprint_bytes)));
  if (r.cache_resident())
    return text + ", which fits in the cache: percentages are cache-resident, not bounded by the "
                  "roofline";
  std::string times = cat(", ", fixed(r.footprint_bytes / r.cache_bytes, 1), "x the cache");
  if (partly_in_cache(r.footprint_bytes, r.cache_bytes))
    return text + times + ": part of it stays in the cache between sweeps, so percentages are " +
           "partly cache-resident and may exceed 100%";
  return text + times + ": percentages are of the roofline";
}

std::string above_roofline_note(const Report& r) {
  const PointResult* best = r.best ? r.find(*r.best) : nullptr;
  if (!best || best->status != PointStatus::Ok || best->fraction_of_copy <= 1.0)
    return "";
  std::string above = cat("the best is faster than the copy roofline (",
                          fixed(100 * best->fraction_of_copy, 1), "%): ");
  if (r.cache_bytes == 0)
    return above + "either part of its data sat in a cache (this device's cache size is unknown) "
                   "or the roofline's copies are slower than what the device can move";
  if (r.cache_resident() || partly_in_cache(r.footprint_bytes, r.cache_bytes))
    return above + "part of its data sat in the cache between sweeps";
  return above + cat("one sweep is ", fixed(r.footprint_bytes / r.cache_bytes, 1),
                     "x the cache, so its data did not sit in it: the roofline's copies are slower "
                     "than what this device can move, and the percentages understate it");
}

std::string format_report(const Report& r, std::size_t top) {
  std::ostringstream out;
  std::string extents;
  for (std::size_t i = 0; i < r.size.size(); ++i)
    extents += cat(i ? "x" : "", r.size[i]);
  out << "tessera report: " << r.stencil << " " << extents << " on " << r.device_name << " ("
      << r.device_platform << ")\n";
  out << "  date " << r.date << ", strategy " << r.strategy << ", budget " << fixed(r.budget_s, 0)
      << " s, elapsed " << fixed(r.elapsed_s, 1) << " s";
  if (r.runs > 1)
    out << " (" << r.runs << " runs, " << fixed(r.total_elapsed_s, 1) << " s in all)";
  if (r.interrupted)
    out << ", INTERRUPTED";
  out << "\n";
  out << "  " << roofline_summary(r) << "\n";
  if (!r.timing_regime.empty())
    out << "  timing: " << r.timing_regime << "\n";
  if (std::string compute = compute_summary(r); !compute.empty())
    out << "  " << compute << "\n";
  std::size_t ok = 0, failed = 0, mismatch = 0;
  for (const auto& p : r.points)
    (p.status == PointStatus::Ok ? ok : p.status == PointStatus::Mismatch ? mismatch : failed)++;
  out << "  space: " << r.space_variants << " variants (depth " << r.depth << ", "
      << r.space_materialized << " generated), " << r.space_points << " points ("
      << r.space_filtered << " filtered); measured " << r.points.size() << ": " << ok << " ok, "
      << failed << " failed, " << mismatch << " mismatch" << (r.complete ? " (complete)" : "")
      << "\n";
  if (!r.prior.empty())
    out << "  order: " << r.prior << "\n";
  out << "  check: " << r.check_method << ", tolerance " << r.tolerance << " (relative)\n";
  const PointResult* best = r.best ? r.find(*r.best) : nullptr;
  const PointResult* base = r.baseline ? r.find(*r.baseline) : nullptr;
  if (base)
    out << "  baseline  " << describe_point(*base) << "\n            "
        << (base->status == PointStatus::Ok ? timing_line(*base, r)
                                            : to_string(base->status) + ": " + base->error)
        << "\n";
  if (best) {
    out << "  best      " << describe_point(*best) << "\n            " << timing_line(*best, r)
        << "\n";
    out << "            " << best->program << "\n";
  }
  if (r.steps)
    out << format_steps_comparison(*r.steps);
  if (std::string above = above_roofline_note(r); !above.empty())
    out << "  note: " << above << "\n";
  if (std::string above = above_peak_note(r); !above.empty())
    out << "  note: " << above << "\n";
  if (best && base && r.speedup > 0)
    out << "  best / baseline: " << fixed(r.speedup, 2) << "x faster than the plain MapGlb "
        << "lowering" << (r.confirmation.empty() ? "" : " (" + r.confirmation + ")") << "\n";
  if (const PointResult* faster = fastest_ok(r);
      best && faster && faster != best && faster->median_ms < best->median_ms)
    out << "  note: " << describe_point(*faster) << " measured faster ("
        << fixed(faster->median_ms, 3) << " ms"
        << (base && base->status == PointStatus::Ok && faster->median_ms > 0
                ? cat(", ", fixed(base->median_ms / faster->median_ms, 2), "x the baseline")
                : std::string())
        << ") from " << faster->repeats << " launch" << (faster->repeats == 1 ? "" : "es")
        << "; the best is chosen among fully timed points"
        << (r.interrupted ? " and the run was interrupted before the finalists were re-timed: "
                            "--resume to confirm"
                          : "")
        << "\n";
  if (!r.strategies.empty()) {
    out << "  time to within 5% of the best:\n";
    for (const auto& s : r.strategies) {
      out << "    " << s.name << std::string(12 - std::min<std::size_t>(11, s.name.size()), ' ');
      if (s.time_to_5pct_s)
        out << fixed(*s.time_to_5pct_s, 1) << " s";
      else
        out << "-";
      out << " (" << s.how << (s.note.empty() ? "" : ": " + s.note) << ")\n";
    }
  }
  std::vector<const PointResult*> sorted;
  for (const auto& p : r.points)
    if (p.status == PointStatus::Ok)
      sorted.push_back(&p);
  std::sort(sorted.begin(), sorted.end(),
            [](auto* a, auto* b) { return a->median_ms < b->median_ms; });
  if (!sorted.empty()) {
    out << "  fastest points (medians of few launches are less reliable than the finalists'):\n";
    for (std::size_t i = 0; i < sorted.size() && i < top; ++i)
      out << "    " << std::setw(3) << i + 1 << ". " << timing_line(*sorted[i], r) << "  "
          << describe_point(*sorted[i]) << "\n";
  }
  std::size_t shown = 0;
  for (const auto& p : r.points) {
    if (p.status == PointStatus::Ok)
      continue;
    if (shown++ == 0)
      out << "  failures:\n";
    if (shown > top) {
      out << "    ... and more\n";
      break;
    }
    std::string why =
        p.status == PointStatus::Mismatch ? cat("max relative error ", p.max_error) : p.error;
    auto nl = why.find('\n');
    if (nl != std::string::npos)
      why = why.substr(0, nl) + " ...";
    out << "    " << describe_point(p) << ": " << to_string(p.status) << ": " << why << "\n";
  }
  return out.str();
}

} // namespace tessera::explore
