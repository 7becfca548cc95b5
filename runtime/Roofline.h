// The roofline of bandwidth-bound kernels: the device's copy bandwidth measured with buffers
// far larger than its last-level cache (4x it, at least 64 MiB, at most 2 GiB on a CPU; at
// least 1 GiB on a GPU where memory allows), as the best of clEnqueueCopyBuffer, a plain copy
// kernel and a float4 copy kernel (each at the implementation's work-group size and at 64, 256
// and 1024 work-items where they divide the launch). The size depends on the cache alone, never on
// the free memory (PoCL's global memory size follows it), so that one measurement serves every
// later run: measured once per device and kept in a JSON file (RooflineFile.h); a problem whose
// data fits in the cache is not bound by it, and reports say so (Report::cache_resident).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>

#include "runtime/ComputePeak.h"
#include "runtime/Timing.h"

namespace tessera::runtime {

class Session;
struct Device;

struct Roofline {
  double gb_per_s = 0;                   // the best method's (read + written bytes) / median time
  std::string method;                    // the best method
  std::map<std::string, double> methods; // GB/s of each method
  std::size_t buffer_bytes = 0;          // size of each of the two buffers
  std::size_t target_bytes = 0;          // the size asked for, before the device's memory limits
  uint64_t cache_bytes = 0;              // the last-level cache (CacheSize.h)
  std::string cache_source;
  std::string limited_by;  // why the buffers are smaller than the target; empty when they are not
  std::string measured_at; // UTC date of the measurement
  bool from_file = false;  // read from the roofline file rather than measured in this run
  double measure_s = 0;    // seconds this run spent measuring it (0 when read from the file)
  ComputePeak compute;     // the compute ceiling (ComputePeak.h); 0 until measured
};

// The buffer size the roofline of `device` asks for: 4x cache_bytes, at least 64 MiB, at most
// 2 GiB on a CPU (at least 1 GiB on a GPU), and at most `cap` (TESSERA_ROOFLINE_BYTES, for quick
// runs). A multiple of 16 bytes.
std::size_t roofline_target_bytes(const Device& device, uint64_t cache_bytes,
                                  uint64_t cap = UINT64_MAX);

// roofline_target_bytes clamped to the largest allocation and to a third of the global memory
// per buffer. `limited_by` says why when the result is below the target.
std::size_t roofline_buffer_bytes(const Device& device, uint64_t cache_bytes,
                                  std::string* limited_by, uint64_t cap = UINT64_MAX);

// Measures the three copies with two buffers of `bytes` each (warm-up, median of repeats).
Roofline measure_roofline(Session& session, std::size_t bytes, TimingOptions options = {1, 3});

} // namespace tessera::runtime
