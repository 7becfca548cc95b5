// The device's measured copy bandwidth (device buffer to device buffer), the yardstick that
// reports compare a kernel's achieved bandwidth against.
#pragma once

#include <cstddef>

#include "runtime/Timing.h"

namespace tessera::runtime {

class Session;

struct Bandwidth {
  double gb_per_s = 0.0; // (bytes read + bytes written) / median time, in 10^9 bytes per second
  double median_ms = 0.0;
  std::size_t bytes = 0; // size of the copied buffer
};

// Times clEnqueueCopyBuffer of `bytes` bytes (warm-up, then median of repeats).
Bandwidth measure_copy_bandwidth(Session& session, std::size_t bytes = std::size_t{64} << 20,
                                 TimingOptions options = {});

} // namespace tessera::runtime
