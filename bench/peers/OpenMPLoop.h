// The stencil as a plain C++ loop nest with OpenMP on all cores, what a user writes by hand:
// rows in parallel, the interior of each row without boundary handling (vectorised by the
// compiler: this file is compiled with -O3 -march=native), the few edge points through the
// boundary. Parity classes (red-black, grid transfers) are strided loops over their points.
#pragma once

#include <vector>

#include "peers/Taps.h"

namespace tessera::peers {

// out = the stencil applied to the inputs x (one pointer per input), all row-major.
void openmp_sweep(const LinearStencil& stencil, const std::vector<const float*>& x, float* out);

// A parallel copy of `count` floats: the host's own copy bandwidth, beside the device's.
void openmp_copy(const float* from, float* to, std::size_t count);

} // namespace tessera::peers
