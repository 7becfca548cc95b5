// OpenCL devices: enumeration, their limits, and selection by a user-given spec.
//
// A spec is one of
//   ""          the default: the first device of the PoCL platform ("Portable Computing
//               Language", the embedded CPU device), else the first device found;
//   "N"         the N-th device in enumeration order over all platforms (see list_devices());
//   "P:D"       device D of platform P;
//   otherwise   a case-insensitive substring of the device name, the platform name, the vendor,
//               or the device type ("cpu", "gpu", "accelerator"); the first match wins.
// The environment variable TESSERA_DEVICE supplies the spec when the caller gives none.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "runtime/OpenCL.h"

namespace tessera::runtime {

struct Device {
  cl::Platform platform;
  cl::Device device;

  int index = 0;          // global index in enumeration order
  int platform_index = 0; // index of the platform
  int device_index = 0;   // index of the device within its platform

  std::string name;
  std::string platform_name;
  std::string vendor;
  std::string type;           // "CPU", "GPU", "accelerator", "custom" or "default"
  std::string version;        // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 PoCL ..."
  std::string driver_version; // CL_DRIVER_VERSION
  std::string platform_version;

  std::size_t max_work_group_size = 0;
  std::vector<std::size_t> max_work_item_sizes; // per dimension
  uint64_t local_mem_size = 0;                  // bytes
  uint64_t global_mem_size = 0;                 // bytes
  uint64_t max_mem_alloc_size = 0;              // bytes, the largest single buffer
  uint64_t global_mem_cache_size = 0;           // bytes, CL_DEVICE_GLOBAL_MEM_CACHE_SIZE
  unsigned compute_units = 0;
  unsigned max_clock_mhz = 0;
  bool supports_double = false;
  uint64_t max_constant_buffer_size = 64 * 1024; // bytes of __constant memory for one kernel
  unsigned max_constant_args = 8;                // __constant arguments of one kernel
  bool image_support = false;                    // CL_DEVICE_IMAGE_SUPPORT
  std::size_t image2d_max_width = 0, image2d_max_height = 0;
  std::size_t image3d_max_width = 0, image3d_max_height = 0, image3d_max_depth = 0;

  // "#0 [0:0] <name> (<platform>; CPU; 2 compute units; 3.8 GiB global, 512 KiB local;
  // max work-group 4096)"
  std::string description() const;
  // The identity used for build-cache keys: platform, device name and driver version.
  std::string identity() const;
  // Whether the device is PoCL's (the default device; its compiler keeps a disk cache of its own).
  bool is_pocl() const;
};

// What a run may allocate on `device`: its global memory and its largest buffer, each capped by
// TESSERA_DEVICE_MEMORY (bytes; a share of a device other jobs use, and the tests' small
// devices). An Error when that variable is not a positive number.
struct MemoryLimits {
  uint64_t total = 0, largest_buffer = 0;
};
MemoryLimits usable_memory(const Device& device);

// All devices of all platforms in enumeration order (empty when there is no OpenCL platform).
std::vector<Device> list_devices();

// The device named by spec (see above). Throws tessera::Error listing every available device
// when nothing matches, or suggesting pocl-opencl-icd when there is no OpenCL platform at all.
Device select_device(const std::string& spec = "");

// Like select_device(spec), but an empty spec is taken from the environment variable
// TESSERA_DEVICE (when set and non-empty) before falling back to the default.
Device select_device_from_env(const std::string& spec = "");

// The same matching as select_device over a given list; exposed for tests.
Device select_device_among(const std::vector<Device>& devices, const std::string& spec);

// The error text for a spec that matches nothing among devices (also covers "no devices").
std::string missing_device_message(const std::vector<Device>& devices, const std::string& spec);

} // namespace tessera::runtime
