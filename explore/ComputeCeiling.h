// The compute ceiling of a report: the program's arithmetic intensity against the device's
// measured multiply-add peak (Report::peak_gflops, flops_per_output), and what bounds each point.
#pragma once

#include <string>

#include "explore/Report.h"

namespace tessera::explore {

// Flops per byte of one sweep (0: unknown).
double arithmetic_intensity(const Report& report);
// A point's arithmetic rate: its cells per second times the program's flops per output.
double point_gflops(const Report& report, const PointResult& p);
// What bounds a point: "arithmetic" when it is nearer (as a fraction) to the compute peak than
// to the copy roofline, else "bytes"; empty when either ceiling or the flops are unknown.
std::string point_bound(const Report& report, const PointResult& p);
// Why the best point's rate passes the compute peak, when it does: "the best's arithmetic rate is
// 183% of the compute peak: it counts the program's flops, and the variant computes fewer (...)";
// empty otherwise.
std::string above_peak_note(const Report& report);
// "compute peak 98.1 GFLOP/s (f32 multiply-adds); 9.0 flops per output, 1.12 flop/byte against a
// ridge of 7.40 flop/byte (peak / copy bandwidth): the ceiling is bytes"; empty when the peak is
// unknown.
std::string compute_summary(const Report& report);

} // namespace tessera::explore
