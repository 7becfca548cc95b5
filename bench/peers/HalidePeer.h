// The stencil in Halide 14, JIT-compiled for the host: with a hand schedule (rows or y-bands in
// parallel, x vectorised 16 wide; parity classes as a select) or with one of Halide's
// autoschedulers. Only built where CMake finds Halide (TESSERA_HAVE_HALIDE); Halide.h stays inside
// HalidePeer.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "peers/Taps.h"

namespace tessera::peers {

struct HalideRun {
  std::string schedule;   // "hand", "Mullapudi2016", "Adams2019"
  double compile_s = 0;   // JIT compilation (and autoscheduling)
  double median_ms = 0;   // wall time of one realize, median of the repeats
  std::vector<float> out; // the output of the last run
  std::string error;      // why there is no result (an autoscheduler that failed, ...)
};

// Whether this build has Halide at all.
bool halide_available();

// Compiles the stencil with `schedule` and times `repeats` realizations (after one warm-up)
// on the inputs x (one array per input, of the stencil's extents) with `threads` threads.
HalideRun run_halide(const LinearStencil& stencil, const std::vector<std::vector<float>>& x,
                     const std::string& schedule, int repeats, int threads, uint64_t cache_bytes);

} // namespace tessera::peers
