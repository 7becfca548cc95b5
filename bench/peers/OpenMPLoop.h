// The stencil as a plain C++ loop nest with OpenMP on all cores, what a user writes by hand:
// rows in parallel, the interior of each row without index clamping (vectorised by the
// compiler: this file is compiled with -O3 -march=native), the few edge points clamped.
#pragma once

#include <array>
#include <cstdint>

#include "peers/Taps.h"

namespace tessera::peers {

// out = the stencil applied to x; both row-major with extents e (outermost first).
void openmp_sweep(const LinearStencil& stencil, const float* x, float* out,
                  const std::array<int64_t, 3>& e);

// A parallel copy of `count` floats: the host's own copy bandwidth, beside the device's.
void openmp_copy(const float* from, float* to, std::size_t count);

} // namespace tessera::peers
