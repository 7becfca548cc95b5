// The OpenCL kernel a user would write first: one work-item per output point, clamped indices,
// the coefficients as literals. A peer on the same device as tessera's kernels.
#pragma once

#include <string>

#include "peers/Taps.h"

namespace tessera::peers {

// The kernel "naive_<name>"(const float* x, float* out, int D, int H, int W), launched over
// (W, H, D).
std::string naive_opencl_source(const LinearStencil& stencil);

} // namespace tessera::peers
