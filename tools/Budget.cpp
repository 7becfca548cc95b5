#include "tools/Budget.h"

#include <algorithm>
#include <cmath>

#include "core/Error.h"
#include "explore/Space.h"

namespace tessera::tools {

std::size_t ok_points(const explore::Report& report) {
  return static_cast<std::size_t>(
      std::count_if(report.points.begin(), report.points.end(),
                    [](const auto& p) { return p.status == explore::PointStatus::Ok; }));
}

std::string first_line(const std::string& text) {
  return text.substr(0, text.find('\n'));
}

namespace {

// 1234.5 -> 1300: an estimate should not look more precise than it is.
double round_up_2_digits(double v) {
  if (v <= 10)
    return std::ceil(v);
  double scale = std::pow(10.0, std::floor(std::log10(v)) - 1);
  return std::ceil(v / scale) * scale;
}

} // namespace

std::string budget_advice(const explore::Report& r, const explore::Problem& problem,
                          double enumeration_s) {
  std::string out;
  if (problem.enumeration.find("deadline") != std::string::npos)
    out +=
        cat("note: the enumeration of variants was cut after ", std::round(enumeration_s * 10) / 10,
            " s (its share of the budget), so the space is not complete; a larger --budget "
            "enumerates more variants\n");
  // A lazy space lists the points of the variants it generated; the others' are estimated from
  // those (the same number of points per variant).
  const bool all_listed = r.space_materialized >= r.space_variants;
  if (r.complete || r.interrupted || (all_listed && r.points.size() >= r.space_points))
    return out;
  const double space_points =
      all_listed || r.space_materialized == 0
          ? static_cast<double>(r.space_points)
          : std::ceil(static_cast<double>(r.space_points) * static_cast<double>(r.space_variants) /
                      static_cast<double>(r.space_materialized));
  // A point's cost: what the measured ones cost, or what their timed launches alone would cost
  // (a point refused because one launch exceeded the budget left).
  double costs = 0, estimates = 0;
  for (const auto& p : r.points) {
    costs += p.cost_s;
    bool refused = p.status != explore::PointStatus::Ok && p.error.rfind("not measured", 0) == 0;
    estimates += p.cost_s + (refused ? (r.warmup + r.repeats + 2) * p.launch_s : 0.0);
  }
  double per_point = r.points.empty() ? 0 : estimates / static_cast<double>(r.points.size());
  double setup = std::max(0.0, r.elapsed_s - costs);
  double needed = round_up_2_digits(setup + space_points * per_point);
  const explore::PointResult* base = r.find(0);
  out += cat("note: the ", r.budget_s, " s budget measured ", r.points.size(), " of ",
             all_listed ? cat(r.space_points) : cat("about ", space_points), " points of ",
             r.stencil, " ", explore::size_text(r.size), " (a point costs about ",
             round_up_2_digits(per_point * 10) / 10, " s here: building, checking and timing",
             base && base->launch_s > 0 ? cat("; one launch of the baseline ",
                                              round_up_2_digits(base->launch_s * 1e5) / 100, " ms")
                                        : std::string(),
             "); a budget of about ", needed,
             " s would measure every point, or explore a "
             "smaller --size\n");
  return out;
}

} // namespace tessera::tools
