// The placement rules' side conditions from a device: its constant memory (place-constant,
// CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE and CL_DEVICE_MAX_CONSTANT_ARGS) and its images
// (place-image, CL_DEVICE_IMAGE_SUPPORT and the largest 2-D and 3-D images); on a CPU device
// also coarsening factors of whole vector widths (8, 16, 32), the inner loops a CPU vectorises.
#pragma once

#include <vector>

#include "rewrite/Enumerate.h"
#include "runtime/Device.h"

namespace tessera::explore {

void apply_device_limits(rewrite::EnumerateOptions& options, const runtime::Device& device);
// The limits every one of `devices` meets (one enumeration shared by several devices).
void apply_device_limits(rewrite::EnumerateOptions& options,
                         const std::vector<runtime::Device>& devices);

} // namespace tessera::explore
