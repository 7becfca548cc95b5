// The OpenCL kernel a user would write first: one work-item per output point, the boundary as
// index arithmetic, the coefficients as literals, a branch per parity class. A peer on the same
// device as tessera's kernels.
#pragma once

#include <string>

#include "peers/Taps.h"

namespace tessera::peers {

// The kernel "naive_<name>"(const float* x0, ..., float* out), launched over the output's
// (W, H, D); the extents are literals.
std::string naive_opencl_source(const LinearStencil& stencil);

} // namespace tessera::peers
