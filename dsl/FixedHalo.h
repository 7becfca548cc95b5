// A fixed halo: the boundary of many stencil benchmarks. The cells within `radius` of the
// grid's edge (in any dimension) are never updated: they keep their initial value across steps,
// and the interior cells read them as their neighbours.
//
//   fixed_halo(d, r, f) $ x  =  out[p] = x[p]                     p in the halo
//                                        f(window of x centred on p)  otherwise
//
// with the (2r+1)^d windows of slide_nd. It is built from the primitives (no new semantics):
//   Map^d(t => keep_halo(centre of t.0, t.1, f(t.0))) $ ZipND(SlideND(2r+1, 1) $ PadND(r, r,
//   clamp) $ x, interior)
// where `interior` is a generated 0/1 grid and keep_halo(old, in, new) = in != 0 ? new : old.
// The clamp is never seen: only the kept cells' windows reach past the edge. It is the stencil
// step the temporal rules match (a grid zipped to the windows, as a right-hand side), so
// x | step | step | ... is fused by overlapped temporal tiling and 2.5-D streaming exactly,
// and iterate(k, step) runs one step after another.
#pragma once

#include <source_location>

#include "dsl/Val.h"

namespace tessera {

// One step of the stencil `point` (a function of a (2r+1)^d window) under a fixed halo of width
// `radius`, for grids of constant extents. Error for dims outside 1..3, radius < 1, or a grid
// with no interior (an extent <= 2 * radius).
Fun fixed_halo(int dims, int radius, Fun point,
               std::source_location loc = std::source_location::current());

} // namespace tessera
