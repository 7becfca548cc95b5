// TimeTile: k time steps of a stencil, tiled in space and time (diamond, parallelogram or rolling
// tiles) and computed by a program of kernels (codegen/TimeTiled.h). It is what the rules
// `diamond-tiling`, `parallelogram-tiling` and `rolling-tiling` (rewrite/rules/TimeTiling.cpp)
// produce.
//
//   TimeTile{scheme, d, r, k, h, L, W}(f) $ a  ==  Iterate(k, S) $ a,
//   S(a) = Map^d(f) $ SlideND(2r+1, 1) $ PadND(r, r, b) $ a
//
// f is applied to each (2r+1)^d neighbourhood; every step pads its own input with the boundary
// b, exactly as the unfused program. h is the number of time steps per band (a band is one
// set of launches), W the tile width per dimension. The node's sizes by name: core/Fields.h.
//
// Rolling tiles (codegen/RollingKernel.h) are one work-item each: a strip of W0 outermost rows
// (planes) by W1 (x W2) inner points, whose h levels stream down the strip in rings of rows, each
// level's row computed as soon as the rows it reads exist. Neighbouring strips recompute the
// rows their levels share (h(h+1)r rows a cut): a CPU's cache-sized form of temporal tiling.
#pragma once

#include <array>
#include <cstdint>

#include "core/Expr.h"

namespace tessera {

enum class TimeTileScheme { Diamond = 0, Parallelogram = 1, Rolling = 2 };

struct TimeTiling {
  TimeTileScheme scheme = TimeTileScheme::Diamond;
  int dims = 1; // 1..3
  int64_t radius = 1;
  int64_t steps = 2; // k
  int64_t band = 2;  // h: steps per band, 1 <= h <= k
  // Work-items per tile: 1 makes a tile one work-item's loop nest (CPUs vectorise its loops),
  // more put work-items side by side along the rows (GPUs).
  int64_t work_group = 1;
  std::array<int64_t, 3> tile{1, 1, 1};
};

const char* scheme_name(TimeTileScheme scheme); // "diamond", "parallelogram", "rolling"

Expr make_time_tile(const TimeTiling& tiling, Boundary boundary, Expr f);
TimeTiling time_tiling_of(const Node& time_tile);
// The equivalent unfused function: Iterate(k, a => Map^d(f) $ SlideND $ PadND $ a).
Expr time_tile_steps(const Node& time_tile);

} // namespace tessera
