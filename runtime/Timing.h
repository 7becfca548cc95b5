// Timing a kernel the way the explorer does: warm-up launches, then the median of repeated
// profiled launches.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "runtime/Kernel.h"
#include "runtime/KernelArg.h"
#include "runtime/Range.h"

namespace tessera::runtime {

class Session;

struct TimingOptions {
  int warmup = 1;  // untimed launches first (caches, lazy allocation, JIT)
  int repeats = 5; // timed launches
  // Called before each timed launch, outside its time (e.g. a cache flush, so that every
  // launch starts from the same cache state); none when empty.
  std::function<void()> before_each;
};

struct Timing {
  double median_ms = 0.0;
  double min_ms = 0.0;
  double max_ms = 0.0;
  std::vector<double> samples_ms; // in launch order
};

// Sets the arguments once, launches warmup + repeats times (each one waited for) and returns
// the statistics of the timed launches. repeats must be at least 1.
Timing time_kernel(Session& session, Kernel& kernel, const std::vector<KernelArg>& args,
                   const Range& global, const Range& local = {}, TimingOptions options = {});

// `warmup` untimed calls of `repetition` (which returns its time in milliseconds), then the
// statistics of `repeats` timed ones; `what` names it in the Error for repeats < 1.
Timing time_repetitions(const std::function<double()>& repetition, TimingOptions options,
                        const std::string& what);

// The median (mean of the two middle values for an even count); 0 for no values.
double median(std::vector<double> values);

} // namespace tessera::runtime
