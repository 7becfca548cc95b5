// A catalog stencil as its taps, for the peers that are written by hand (the naive OpenCL
// kernel, the OpenMP loop, Halide): out[p] = bias + sum of weight * x[clamp(p + offset)].
// The taps are the stencil's impulse response under the reference interpreter, so the peers
// compute what the catalog defines and nothing is copied by hand from its descriptions.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::stencils {
struct StencilInfo;
}

namespace tessera::peers {

struct Tap {
  std::array<int, 3> offset{}; // (k, j, i), outermost first; unused outer dimensions are 0
  float weight = 0;
};

struct LinearStencil {
  std::string name;
  int dims = 0;
  int radius = 0;
  float bias = 0;
  std::vector<Tap> taps;
};

// The taps of a single-input catalog stencil with a clamped boundary. Error when the entry has
// more inputs, or when the taps do not reproduce the interpreter on random data (a stencil that
// is not linear, or whose boundary is not clamped).
LinearStencil linear_stencil(const stencils::StencilInfo& info);

// Extents padded to three, outermost first: {H, W} -> {1, H, W}.
std::array<int64_t, 3> extents3(const std::vector<int64_t>& extents);

// The taps applied on the host with clamped indices, one thread: the slow, obvious reference
// that the taps themselves are checked with.
std::vector<float> apply_taps(const LinearStencil& s, const std::vector<float>& x,
                              const std::array<int64_t, 3>& extents);

} // namespace tessera::peers
