// Rolling tiles (core/TimeTile.h, scheme Rolling): a band of h steps of a stencil as one launch,
// one work-item a tile, for CPUs. A tile is a strip of W0 outermost rows (2-D) or planes (3-D)
// by W1 (x W2) inner points. The work-item walks its strip once: at step s it produces row
// s - t r of every level t = 0..h (level 0 loaded from the input, level h stored to the output),
// so every level's row is computed as soon as the 2r + 1 rows of the level below it exist.
// Levels 0..h-1 keep their last 3r + 1 rows in a ring in local memory (the 2r + 1 a row reads,
// and room for the r rows beyond a non-periodic grid's edge, which are written as the boundary
// says once the rows they copy exist). A level's rows and columns reach (h - t) r beyond the
// tile on each side (clipped to the grid unless it wraps), so neighbouring tiles recompute what
// they share, and the grid is read and written once a band.
//
// A row's loop runs over contiguous local memory with nothing but f and a store in it, which a
// CPU's compiler vectorises; a level of 8192 floats is 32 KiB, so a 2-D band's rings stay in a
// core's L2 cache where the grid does not fit in any cache.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "codegen/Kernel.h"
#include "core/Expr.h"
#include "core/TimeTile.h"

namespace tessera::codegen {

struct RollingGeometry {
  int d = 2;
  int64_t r = 1;
  Boundary boundary;
  bool wrap = false;
  std::array<int64_t, 3> N{1, 1, 1}; // extents, outermost first
  std::array<int64_t, 3> W{1, 1, 1}; // tile widths (the last tile takes the rest)
  std::array<int64_t, 3> m{1, 1, 1}; // tiles per dimension

  // Throws a user error when the tiling does not fit the grid.
  RollingGeometry(const TimeTiling& tiling, Boundary boundary, const std::vector<int64_t>& N);

  int64_t ring() const { return 3 * r + 1; }
  int64_t tiles() const { return m[0] * m[1] * m[2]; }
  // The points of one ring row (a row or a plane of the inner dimensions) for bands of h steps:
  // the tile plus h r on each side and the boundary's r beyond (where a tile's reach meets the
  // grid's edge). Its origin is the tile's first point less (h + 1) r.
  int64_t slice_extent(int l, int64_t h) const { return W[l] + 2 * (h + 1) * r; }
  int64_t slice_points(int64_t h) const;
  int64_t local_points(int64_t h) const { return h * ring() * slice_points(h); }
  // Tile i's range in dimension l at level t of a band of h steps: [lo, hi).
  std::pair<int64_t, int64_t> range(int l, int64_t i, int64_t t, int64_t h) const;
  // The stencil evaluations of a band of h steps (levels 1..h of every tile).
  int64_t evaluations(int64_t h) const;
};

struct RollingKernelSpec {
  RollingGeometry geometry;
  int64_t band = 1; // h
  Expr f;           // applied to each neighbourhood
  ScalarKind element = ScalarKind::F32;
  Type grid = f32();
  int64_t grid_points = 1;
  std::string name;
  std::string program_text;
};
Kernel rolling_kernel(const RollingKernelSpec& spec);

} // namespace tessera::codegen
