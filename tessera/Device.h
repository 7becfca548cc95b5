// tessera's public C++ API, part 4: OpenCL devices.
//
//   runtime::Session device = tessera::open_device();      // TESSERA_DEVICE, else PoCL
//   runtime::Session gpu = tessera::open_device("NVIDIA"); // a platform or device name part
//
// A session holds the device's context, a profiling command queue and the kernel build cache
// ($TESSERA_CACHE_DIR, default ~/.cache/tessera). This header includes the OpenCL C++ headers:
// include it only where a device is used.
#pragma once

#include <string>
#include <vector>

#include "runtime/Device.h"
#include "runtime/Session.h"

namespace tessera {

// The device named by `spec` (a platform or device name substring, or an index into
// list_devices()); empty: $TESSERA_DEVICE, else PoCL. Error listing the devices otherwise.
runtime::Session open_device(const std::string& spec = "");

using runtime::list_devices;

} // namespace tessera
