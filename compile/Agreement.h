// The one check of a kernel's output against its reference (the interpreter, or a kernel the
// interpreter checked), used by `tessera run`, the explorer, the benchmarks and the tests of
// run_variant: max |out - ref| / max(1, |ref|) within kTolerance (docs/explorer.md, "Tolerance").
// The variants only rearrange the order of f32 operations; 1e-4 bounds the rounding that
// reassociating sums of many points and fused steps gives.
#pragma once

#include <vector>

namespace tessera::explore {

constexpr double kTolerance = 1e-4;

// Largest |result - reference| / max(1, |reference|); infinite when exactly one of a pair is
// NaN or the sizes differ.
double max_relative_difference(const std::vector<double>& result,
                               const std::vector<double>& reference);
double max_relative_difference(const std::vector<float>& result,
                               const std::vector<double>& reference);

// True when a max_relative_difference is within the tolerance (NaN is not).
inline bool within_tolerance(double difference, double tolerance = kTolerance) {
  return difference <= tolerance;
}

} // namespace tessera::explore
