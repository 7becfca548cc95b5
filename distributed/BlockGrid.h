// The block decomposition of a global grid over a Cartesian grid of ranks, and the boxes a rank
// computes between two halo exchanges. Pure arithmetic (no MPI, no device): every rank computes
// the same decomposition, so a refusal (a block thinner than the halo) is the same on all ranks.
//
// Along dimension d the global extent n is split into P_d blocks; block c gets
//   extent = n / P_d + (c < n % P_d ? 1 : 0),   offset = c * (n / P_d) + min(c, n % P_d).
// A side of a block is internal when a neighbouring rank lies beyond it (for a periodic grid,
// the wrap-around neighbour too, when P_d > 1); otherwise it is a global edge, where the
// stencil's own Pad applies. A rank stores its block extended by the halo h = k * r on its
// internal sides (k fused steps, stencil radius r): the "extended block" E.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::distributed {

// Per dimension, outermost first; [0] the low side, [1] the high side.
using Sides = std::vector<std::array<bool, 2>>;

struct Block {
  std::vector<int> coords;      // in the grid of ranks
  std::vector<int64_t> offset;  // of the block in the global grid
  std::vector<int64_t> extent;  // of the block
  Sides internal;               // a neighbouring rank supplies a halo beyond the side
  std::vector<int64_t> halo_lo; // halo width stored below the block (h or 0), per dimension
  std::vector<int64_t> halo_hi;
  std::vector<int64_t> extended() const; // extent + halo_lo + halo_hi
  int64_t points() const;
};

// A box a rank computes: k steps of the rank-local program on the input region of E give the
// output region of the block. A side marked `internal` loses r per step (its input reaches h
// beyond the output); the other sides are global edges where each step pads as on one device.
struct Box {
  std::vector<int64_t> in_offset, in_extent;   // in the extended block E
  std::vector<int64_t> out_offset, out_extent; // in the block
  Sides internal;
};

struct BlockGrid {
  std::vector<int64_t> global; // grid extents, outermost first
  std::vector<int> ranks;      // ranks per dimension (MPI_Dims_create)
  bool periodic = false;       // wrap boundary: the grid of ranks is a torus
  int64_t radius = 0;          // of one step
  int steps = 1;               // k: steps between two exchanges
  int64_t halo() const { return radius * steps; }

  // Error unless the dimensions agree, every dimension has at least one rank and every block
  // is at least as thick as the halo along a dimension that exchanges halos.
  void validate() const;
  Block block(const std::vector<int>& coords) const;
  // The rank coordinates of a linear rank index in row-major order (MPI's Cartesian order).
  std::vector<int> coords_of(int rank) const;
};

// The boxes of one exchange period. Without overlap: one box, E to the whole block. With
// overlap: first the interior (from the block's own data: computable before the halos arrive),
// then the shell boxes around it (need the halos); when the block is too thin for an interior
// that leaves every shell box inside E, the single box.
std::vector<Box> boxes(const Block& block, int64_t radius, int steps, bool overlap);

// "2x2x1".
std::string extents_text(const std::vector<int64_t>& extents);

} // namespace tessera::distributed
