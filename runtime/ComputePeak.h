// The compute ceiling of a device: its measured multiply-add peak in f32 and f64, from a kernel
// of independent multiply-add chains of 8-wide vectors (enough of them per work-item to hide the
// latency of each), as the roofline's copy bandwidth is the ceiling of bytes. Kept in the
// roofline's file (RooflineFile.h) beside it.
#pragma once

#include <string>

#include "runtime/Timing.h"

namespace tessera::runtime {

class Session;

struct ComputePeak {
  double f32_gflops = 0; // 2 flops per multiply-add
  double f64_gflops = 0; // 0 where the device has no f64
};

// Measures both peaks (warm-up, the best of the repeats: a peak is what the device can reach).
// Error when the kernel's result is not the one expected (a kernel the compiler folded away
// would set a false peak).
ComputePeak measure_compute_peak(Session& session, TimingOptions options = {1, 3});

// "f32 1234.5 GFLOP/s, f64 617.2 GFLOP/s" (f64 "none" when 0).
std::string describe(const ComputePeak& peak);

} // namespace tessera::runtime
