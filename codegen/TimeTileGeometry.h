// The tiles of a time-tiled program (core/TimeTile.h) on a grid of constant extents: where each
// tile is at each time level of a band. The kernels (codegen/TimeTileKernel.cpp) compute the
// same ranges in OpenCL C; the host uses them for the local-memory box, the launch sizes and the
// count of stencil evaluations.
//
// Per dimension l the grid [0, N) is cut at i*W (m tiles; a remainder narrower than 2hr joins
// the last tile). At level t (1..h) of a band of h steps:
//   diamond, upright tile i:   [lo_i + t r, hi_i - t r)  (no shrinking at a grid edge unless
//                              the grid wraps: the boundary is handled by the tile itself)
//   diamond, inverted tile at cut c:  [c - t r, c + t r)  (cuts 1..m-1; with wrap also cut 0)
//   parallelogram tile i:      [lo_i - t r, hi_i - t r)  (tile 0 starts at 0, the last one ends
//                              at N; with wrap tile 0 starts at t r and the last ends at N + t r)
// At every level these ranges partition the grid (with wrap: modulo N), so every point of every
// time step is computed exactly once: k x N stencil evaluations.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/Expr.h"
#include "core/TimeTile.h"

namespace tessera::codegen {

struct TimeTileGeometry {
  TimeTiling tiling;
  Boundary boundary;
  int d = 1;
  int64_t r = 1;
  bool wrap = false;
  std::array<int64_t, 3> N{1, 1, 1}; // extents, outermost first
  std::array<int64_t, 3> W{1, 1, 1}; // tile widths
  std::array<int64_t, 3> m{1, 1, 1}; // tiles per dimension

  // Throws a user error when the tiling does not fit the grid (tiles narrower than 2hr).
  TimeTileGeometry(const TimeTiling& tiling, Boundary boundary, const std::vector<int64_t>& N);

  int64_t tile_lo(int l, int64_t i) const { return i * W[l]; }
  int64_t tile_hi(int l, int64_t i) const { return i == m[l] - 1 ? N[l] : (i + 1) * W[l]; }
  // Diamond: the number of upright (down = false) or inverted tiles in dimension l.
  int64_t diamond_tiles(int l, bool down) const { return down && !wrap ? m[l] - 1 : m[l]; }
  // The range of a tile in dimension l at level t.
  std::pair<int64_t, int64_t> diamond_range(int l, bool down, int64_t i, int64_t t) const;
  std::pair<int64_t, int64_t> parallelogram_range(int l, int64_t i, int64_t t) const;
  // The widest window (range plus r on each side) of any tile of the phase at any level <= h,
  // per dimension: the local-memory box. phase: the diamond's inverted dimensions as bits, or
  // -1 for parallelogram tiles.
  std::array<int64_t, 3> box(int phase, int64_t h) const;
  // The points computed by all tiles of a band of h steps (k x N over all bands).
  int64_t evaluations(int64_t h) const;

  // The compact edge buffer between the launches of a band. Per dimension l and level t < h, a
  // slot per cut c (slot s: the cut at s W; a periodic grid's cut at N is slot 0) holds the 4r
  // positions next to it that a tile on its other side reads at level t + 1, [c - (t+2)r,
  // c - tr) then [c + tr, c + (t+2)r), by every position of the other dimensions: a grid whose
  // extent l is 4r. O(N h r / W) values per band instead of h - 1 grids.
  int64_t edge_slot_points(int l) const;       // 4r x the other extents
  int64_t edge_level_points(int l) const;      // m[l] slots
  int64_t edge_offset(int l, int64_t h) const; // where dimension l's part starts (bands of h)
  int64_t edge_points(int64_t h) const;        // the whole buffer
};

} // namespace tessera::codegen
