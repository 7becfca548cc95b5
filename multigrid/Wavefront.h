// Red-black Gauss-Seidel steps of the Poisson operator as one pass over a 3-D grid (a
// wavefront): out of place, the H = 2 x steps half-sweeps on successive planes in one kernel, so
// u and f are read and the new grid written once a pass instead of once a half-sweep.
//
// A work-group owns a tile of the x-y plane and a segment [z0, z1) of planes, and marches up its
// segment. At iteration p, stage k (the k-th half-sweep, red for odd k) computes the points of its
// colour on plane p - k + 1 in the tile and a ring H - k points wide around it (and as many
// planes beside the segment), into local memory. Its neighbours are stage k - 1's values, its own
// value stage k - 2's (u's for the first two stages); a barrier follows each stage. The last stage
// writes the tile's plane p - H + 1: its colour computed, the other colour copied from stage
// H - 1. Every value a stage reads is in local memory, and no work-group writes another's points;
// a ring is recomputed by each work-group beside it.
//
// It holds for the Poisson half-sweeps (gsrb_half_sweep, whose update it calls) through a local
// boundary (not wrap: a ghost there reads the far side of the grid). Measured on an H200 (f64,
// 32x16 tiles of 4 rows a work-item), one step a pass runs at 1.51x the two separate half-sweeps
// at 512^3 (65% of the copy roofline against their 86%: its planes are in step with barriers),
// 1.25x at 256^3 and 1.42x at 128^3; the solver uses it on a GPU's large levels
// (HalfSweepStorage::Auto). Two steps a pass ran at 0.88-0.95x: more registers and local memory
// a work-group, fewer of them at once, and the kernel is bound by its planes' latency, not by
// bytes. BENCHMARKS.md has the measurements.
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
// marched axis is cut into, how many rows of the tile each work-item computes (a divisor of
// tile_y: the work-group is tile_x x tile_y / rows; more rows a work-item, more loads in flight
// and fewer barriers a point), and how many red-black steps a pass computes (temporal blocking:
// each more widens the ring a work-group recomputes by two points).
struct WavefrontShape {
  int64_t tile_x = 16, tile_y = 8, segments = 1, rows = 1;
  int steps = 1;
};

// The shape of `steps` steps a pass for a grid of `sizes` (z, y, x: Level::sizes) on `device`:
// enough work-groups to fill it, segments of at least kWavefrontMinSegment planes a step, and a
// tile whose local memory (in f64) fits the device's.
WavefrontShape wavefront_shape(const runtime::Device& device, const std::vector<int64_t>& sizes,
                               int steps = 1);
constexpr int64_t kWavefrontMinSegment = 8;
// How many segments a marched axis of `planes` is cut into for `tiles` tiles on `device`: as many
// as fill one wave of work-groups (about 4 a compute unit), each at least `min_planes` planes
// (HPGMG-FV's one-pass step, Fv4Step.h, cuts its interior so too).
int64_t wave_segments(const runtime::Device& device, int64_t tiles, int64_t planes,
                      int64_t min_planes);
// The most steps a pass: each adds four planes of local memory and a ring of two points.
constexpr int kMostWavefrontSteps = 4;
// The local memory a work-group of `shape` holds: 4 planes of u with a ring of H = 2 x steps, and
// 3 planes of each stage k < H with a ring of H - k, its colour's points alone.
int64_t wavefront_local_bytes(const WavefrontShape& shape, ScalarKind kind);

// Whether a work-group of `shape` in `kind` fits `device`'s local memory (a device with little may
// fit no tile of several steps a pass).
bool wavefront_fits(const runtime::Device& device, const WavefrontShape& shape, ScalarKind kind);

// Why the step of `level` with boundary `bc` cannot run as a wavefront ("" when it can).
std::string poisson_wavefront_why_not(const Level& level, Boundary bc);

// The kernel `name`'s source for shape.steps steps; `red` is the red half-sweep's plain kernel
// (its update helper is called), red points are those whose index sum plus `red_parity` is even.
// Its parameters are u, f and the new solution.
std::string poisson_wavefront_source(const codegen::Kernel& red, const Level& level, Boundary bc,
                                     int red_parity, const WavefrontShape& shape,
                                     const std::string& name);

// The kernel for the session's device (built on first launch), launched over (u, f, new u) by
// Schedule::launch_over.
std::shared_ptr<CompiledKernel>
poisson_wavefront_kernel(runtime::Session& session, const codegen::Kernel& red, const Level& level,
                         Boundary bc, int red_parity, const WavefrontShape& shape);

} // namespace tessera::multigrid
