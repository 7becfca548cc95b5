#include "explore/DeviceShares.h"

#include <nlohmann/json.hpp>

#include "core/Error.h"

namespace tessera::explore {

std::vector<DeviceShare> split_variants(const Problem& problem, int devices) {
  if (devices < 1)
    user_error(cat("exploring over devices needs at least one device, got ", devices));
  std::vector<DeviceShare> shares(static_cast<std::size_t>(devices));
  for (auto& s : shares) {
    s.problem = problem;
    s.problem.variants.clear();
  }
  for (std::size_t v = 0; v < problem.variants.size(); ++v) {
    auto add = [&](DeviceShare& s) {
      s.problem.variants.push_back(problem.variants[v]);
      s.variant_of.push_back(static_cast<int>(v));
    };
    if (v == 0)
      for (auto& s : shares)
        add(s);
    else
      add(shares[(v - 1) % shares.size()]);
  }
  return shares;
}

namespace {

nlohmann::json best_of(const DeviceShare& share, const Report& report) {
  const PointResult* best = report.best ? report.find(*report.best) : nullptr;
  if (!best)
    return nullptr;
  return {{"variant", share.variant_of.at(static_cast<std::size_t>(best->variant))},
          {"local", best->local},
          {"median_ms", best->median_ms},
          {"gb_per_s", best->gb_per_s}};
}

} // namespace

nlohmann::json merge_reports(const std::vector<DeviceShare>& shares,
                             const std::vector<Report>& reports,
                             const std::vector<std::string>& errors) {
  if (shares.size() != reports.size() || shares.empty() ||
      (!errors.empty() && errors.size() != shares.size()))
    internal_error("merge_reports: one report per share");
  auto failed = [&](std::size_t d) { return !errors.empty() && !errors[d].empty(); };
  const Report* any = &reports[0]; // one that ran, for the stencil and size
  for (std::size_t d = 0; d < reports.size(); ++d)
    if (!failed(d)) {
      any = &reports[d];
      break;
    }
  nlohmann::json devices = nlohmann::json::array();
  nlohmann::json best = nullptr;
  for (std::size_t d = 0; d < shares.size(); ++d) {
    if (failed(d)) {
      devices.push_back({{"device", reports[d].device_description},
                         {"variants", shares[d].variant_of},
                         {"best", nullptr},
                         {"report", nullptr},
                         {"error", errors[d]}});
      continue;
    }
    nlohmann::json b = best_of(shares[d], reports[d]);
    if (!b.is_null() && (best.is_null() || b["median_ms"] < best["median_ms"])) {
      best = b;
      best["device"] = d;
    }
    devices.push_back({{"device", reports[d].device_description},
                       {"variants", shares[d].variant_of},
                       {"best", b},
                       {"report", report_to_json(reports[d])}});
  }
  return {{"format", "tessera-explore-devices"},
          {"version", 1},
          {"stencil", any->stencil},
          {"size", any->size},
          {"devices", devices},
          {"best", best}};
}

} // namespace tessera::explore
