// A stencil or multigrid operator as its taps, for the peers that are written by hand (the naive
// OpenCL kernel, the OpenMP loop, Halide):
//   out[p] = bias[c] + sum over the taps t of class c of weight * x_t.input[edge(base(p) + offset)]
// where c is the parity class of the output point p (one class for a plain stencil; one per
// combination of index parities for red-black smoothers and grid transfers), base(p) maps p to
// the input's grid (p itself, 2p on a finer input, floor(p/2) on a coarser one) and edge is the
// boundary of the program's Pad (clamp, mirror, antisymmetric reflection or wrap). The taps are
// the impulse responses of the program under the reference interpreter, so the peers compute
// what tessera's program defines and nothing is copied by hand from its descriptions.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/Expr.h"

namespace tessera::stencils {
struct StencilInfo;
}

namespace tessera::peers {

using Extents3 = std::array<int64_t, 3>; // outermost first; unused outer dimensions are 1

struct Tap {
  std::array<int, 3> offset{}; // (k, j, i), outermost first; unused outer dimensions are 0
  float weight = 0;
  int input = 0;
};

struct TapClass {
  float bias = 0;
  std::vector<Tap> taps;
};

// How an input's grid relates to the output's: the same grid, a grid twice as fine (restriction
// reads 2p + offset) or twice as coarse (prolongation reads floor(p/2) + offset).
enum class Scale { Same, Finer, Coarser };

struct LinearStencil {
  std::string name;
  int dims = 0;
  int radius = 0; // the largest |offset| of any tap
  Boundary::Kind edge = Boundary::Clamp;
  Extents3 out{1, 1, 1};
  std::vector<Extents3> in; // one per input
  std::vector<Scale> scale; // one per input
  bool parity = false;      // classes indexed by (k&1)*4 + (j&1)*2 + (i&1), else one class
  std::vector<TapClass> classes;

  int inputs() const { return static_cast<int>(in.size()); }
  int class_of(int64_t k, int64_t j, int64_t i) const {
    return parity ? static_cast<int>((k & 1) * 4 + (j & 1) * 2 + (i & 1)) : 0;
  }
  std::size_t out_cells() const { return static_cast<std::size_t>(out[0] * out[1] * out[2]); }
  double bytes_per_sweep() const; // every input read once and the output written once, f32
};

// The input index a base index reads on an axis of n points, and the sign of the value read
// (-1 where an antisymmetric boundary negates it).
struct EdgeRead {
  int64_t index;
  float sign;
};
EdgeRead edge_read(Boundary::Kind edge, int64_t index, int64_t n);
// The base index on the input's axis of output index p.
inline int64_t base_index(Scale s, int64_t p) {
  return s == Scale::Same ? p : s == Scale::Finer ? 2 * p : (p >= 0 ? p / 2 : -((1 - p) / 2));
}

// An operator by the extents it is known by (outermost first; its fine grid, say): its program,
// built on a grid of `extents` with the coefficients (mesh width) it has on a grid of `like`,
// and the extents of its inputs and of its output.
struct OperatorAt {
  std::string name;
  int dims = 0;
  Boundary::Kind edge = Boundary::Clamp;
  std::function<Expr(const std::vector<int64_t>& extents, const std::vector<int64_t>& like)> build;
  std::function<std::vector<std::vector<int64_t>>(const std::vector<int64_t>& extents)> inputs;
  std::function<std::vector<int64_t>(const std::vector<int64_t>& extents)> output;
};

// The taps of `op` on grids of `extents`, read from the program's impulse responses on a small
// grid. Error when they do not reproduce the interpreter on random data (an operator that is not
// linear in its inputs, or whose boundary is not `op.edge`).
LinearStencil linear_operator(const OperatorAt& op, const std::vector<int64_t>& extents);

// A single-input catalog stencil with a clamped boundary as an operator; Error for other entries.
OperatorAt catalog_operator(const stencils::StencilInfo& info);

// Extents padded to three, outermost first: {H, W} -> {1, H, W}.
Extents3 extents3(const std::vector<int64_t>& extents);

// The taps applied on the host, one thread: the slow, obvious reference that the taps themselves
// are checked with. `x` holds one array per input.
std::vector<float> apply_taps(const LinearStencil& s, const std::vector<std::vector<float>>& x);

} // namespace tessera::peers
