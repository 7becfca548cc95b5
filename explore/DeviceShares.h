// Exploration over several devices of a host (`tessera explore --devices all`): the variants are
// dealt out to the devices, each device explores its share, and the reports are merged by
// device.
//
// Share j of D holds variant 0, the plain lowering (every device needs its own baseline and
// reference), and every variant v >= 1 with (v - 1) % D == j, so the shares differ in size by at
// most one variant and together hold every variant once (variant 0 once per device).
#pragma once

#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "explore/Explorer.h"

namespace tessera::explore {

struct DeviceShare {
  Problem problem;             // the share's variants, renumbered from 0
  std::vector<int> variant_of; // variant_of[i]: the index in the whole problem of share variant i
};

// Error when devices < 1.
std::vector<DeviceShare> split_variants(const Problem& problem, int devices);

// {"format": "tessera-explore-devices", "version": 1, "stencil", "size",
//  "devices": [{"device", "variants": [whole-problem indices], "best": {"variant", "local",
//               "median_ms", "gb_per_s"} or null, "report": the device's report,
//               "error": why the device failed (only when it did; its report is then null)}],
//  "best": {"device": index, "variant", "local", "median_ms", "gb_per_s"} or null}
// Variant numbers in "best" are those of the whole problem (the reports keep their own).
nlohmann::json merge_reports(const std::vector<DeviceShare>& shares,
                             const std::vector<Report>& reports,
                             const std::vector<std::string>& errors = {});

} // namespace tessera::explore
