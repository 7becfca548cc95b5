// The enumeration's options for a device: its target (runtime::target_of: constant memory and
// images for the placements, local memory for the streaming forms, ...), and on a CPU device
// also coarsening factors of whole vector widths (8, 16, 32), the inner loops a CPU vectorises;
// on a GPU partial sums by plane from windows of 25 points (28 elsewhere).
#pragma once

#include <vector>

#include "rewrite/Enumerate.h"
#include "runtime/Device.h"

namespace tessera::explore {

void apply_device_limits(rewrite::EnumerateOptions& options, const runtime::Device& device);
// The limits every one of `devices` meets (one enumeration shared by several devices,
// common_target); the coarsening factors of the first device's kind.
void apply_device_limits(rewrite::EnumerateOptions& options,
                         const std::vector<runtime::Device>& devices);

} // namespace tessera::explore
