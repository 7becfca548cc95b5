// HPGMG-FV's 4th-order red-black Gauss-Seidel step on the interior of a 3-D grid as one pass:
// u, f and the coefficients read once and the new grid written once, where the two half-sweeps
// read them twice and write twice (on an H200 each half-sweep moves the bytes of a whole step).
//
// The black update reads the new red values at its six face neighbours alone: the 4th-order
// form's other reads (2 cells along an axis, 1 along two) are of its own colour, whose old
// values u holds. So a work-group owns a tile of the x-y plane and a segment of planes and
// marches up it: at plane p it computes the red points of plane p in the tile and a ring of one
// into local memory (barrier), then plane p - 1's points of the tile, black ones from their red
// neighbours on planes p - 2 .. p, red ones copied (barrier). Only the interior form (points 2
// or more cells from every boundary, HelmholtzFv4.h) is computed here, by the half-sweeps' own
// helper with the same arguments, so the values are theirs to the bit.
//
// The parts of the grid within 2 cells of a boundary are the half-sweeps' own (their split
// launches' parts around the interior), in this order through a third grid `shell`:
//   1. the red half-sweep around the interior: u -> shell (red computed, black copied);
//   2. this kernel on the interior: u -> out; the red points 1 cell from a boundary read from
//      shell; and it stores into shell the points 2 or 3 cells from a boundary (red new, black
//      old), which the black half-sweep beside them reads;
//   3. the black half-sweep around the interior: shell -> out.
// One device only (a rank's box has no boundary on every side).
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

// A work-group's tile of the interior's x-y plane (an even number of points wide), its size (a
// 1-D group), and how many segments the interior's planes are cut into.
struct Fv4StepShape {
  int64_t tile_x = 32, tile_y = 16, group = 128, segments = 1;
};

// The shape for a grid of `sizes` (z, y, x) on `device`: a GPU's 32x16 tile of 128 work-items, a
// CPU's 16x4 of 32; segments enough to fill the device with work-groups.
Fv4StepShape fv4_step_shape(const runtime::Device& device, const std::vector<int64_t>& sizes);
// How many segments a tile of `shape` wants on `device`: Poisson's wavefront's choice
// (wave_segments, Wavefront.h), segments of at least 8 planes (each recomputes a plane of red
// points below it).
int64_t fv4_step_segments(const runtime::Device& device, const std::vector<int64_t>& sizes,
                          const Fv4StepShape& shape);
// The red points of three planes, tile and ring.
int64_t fv4_step_local_bytes(const Fv4StepShape& shape, ScalarKind kind);

// Why the step of `level`, whose half-sweeps are `red` and `black`, cannot run so ("" when it
// can): a 3-D whole grid of 8 or more cells a side whose half-sweeps run their interior form on
// the points 2 or more cells in.
std::string fv4_step_why_not(const Level& level, const CompiledKernel& red,
                             const CompiledKernel& black);

// The kernel `name`'s source; `interior` is the red half-sweep's interior kernel (its helper
// is called), `first_colour` the red half-sweep's colour (its points have an index sum plus it
// even). Its parameters: the half-sweep's inputs (u, f, alpha, beta_0 .. beta_2), shell, out.
std::string fv4_step_source(const codegen::Kernel& interior, const Level& level, int first_colour,
                            const Fv4StepShape& shape, const std::string& name);

// The kernel for the session's device, launched over (u, f, alpha, beta_0..2, shell, out).
std::shared_ptr<CompiledKernel> fv4_step_kernel(runtime::Session& session,
                                                const CompiledKernel& red, const Level& level,
                                                int first_colour, const Fv4StepShape& shape);

} // namespace tessera::multigrid
