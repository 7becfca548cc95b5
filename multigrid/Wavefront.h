// A red-black Gauss-Seidel step of the Poisson operator as one pass over a 3-D grid (a
// wavefront): out of place, the red half-sweep on plane p and the black one on plane p - 1 in the
// same kernel, so u and f are read and the new grid written once a step instead of twice.
//
// A work-group owns a tile of the x-y plane and a segment [z0, z1) of planes, and marches up its
// segment. At plane p it computes the red points of its tile and of a ring one point wide around
// it (on planes z0 - 1 .. z1, the two beside the segment included) into local memory, from u's
// planes p - 1 .. p + 1 staged there; after a barrier it computes the black points of its tile at
// plane p - 1 from those red values, and writes the tile's plane p - 1 (red points: their red
// value). Every red value a black point reads is in local memory, and no work-group writes
// another's points.
//
// It holds for the Poisson half-sweeps (gsrb_half_sweep, whose update it calls) through a local
// boundary (not wrap: a ghost there reads the far side of the grid). Measured on an H200 with
// 32x8 tiles of 4 rows a work-item it runs at 1.21-1.24x the two separate half-sweeps (each near
// 86% of the copy roofline, the wavefront near 53%: its planes are in step with barriers); the
// solver uses it on a GPU's large levels (HalfSweepStorage::Auto; in f32 1.28-1.30x).
// BENCHMARKS.md has the measurements.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "multigrid/Operators.h"
#include "multigrid/Program.h"

namespace tessera::runtime {
struct Device;
}

namespace tessera::multigrid {

// A work-group's tile of the x-y plane (an even number of points wide), how many segments the
// marched axis is cut into, and how many rows of the tile each work-item computes (a divisor of
// tile_y: the work-group is tile_x x tile_y / rows; more rows a work-item, more loads in flight
// and fewer barriers a point).
struct WavefrontShape {
  int64_t tile_x = 16, tile_y = 8, segments = 1, rows = 1;
};

// The shape for a grid of `sizes` (z, y, x: Level::sizes) on `device`: enough work-groups to
// fill it, segments of at least kWavefrontMinSegment planes, and a tile whose local memory (in
// f64) fits the device's.
WavefrontShape wavefront_shape(const runtime::Device& device, const std::vector<int64_t>& sizes);
constexpr int64_t kWavefrontMinSegment = 8;
// The local memory a work-group of `shape` holds: 4 planes of u with a ring of two, 3 of the red
// values and 3 of f with a ring of one.
int64_t wavefront_local_bytes(const WavefrontShape& shape, ScalarKind kind);

// Why the step of `level` with boundary `bc` cannot run as a wavefront ("" when it can).
std::string poisson_wavefront_why_not(const Level& level, Boundary bc);

// The kernel `name`'s source; `red` is the red half-sweep's plain kernel (its update helper is
// called), red points are those whose index sum plus `red_parity` is even. Its parameters are u,
// f and the new solution.
std::string poisson_wavefront_source(const codegen::Kernel& red, const Level& level, Boundary bc,
                                     int red_parity, const WavefrontShape& shape,
                                     const std::string& name);

// The kernel for the session's device (built on first launch), launched over (u, f, new u) by
// Schedule::launch_over.
std::shared_ptr<CompiledKernel>
poisson_wavefront_kernel(runtime::Session& session, const codegen::Kernel& red, const Level& level,
                         Boundary bc, int red_parity, const WavefrontShape& shape);

} // namespace tessera::multigrid
