// The rank-local step: one step of a stencil on a box of the extended block, exact wherever the
// box's input reaches r beyond the output it must give.
//
//   local_step = Drop_internal(r) o step
//
// `step` is the stencil as on one device, Pad included. On a side that is a global edge the
// Pad is exactly the single-device boundary (clamp, mirror, antisymmetric and constant read
// only the r elements next to their own edge; wrap is kept only along a dimension with one
// rank, where both edges are the global ones). On an internal side the Pad's values are wrong,
// but they only reach the r outputs next to that side, which the Drop removes: every output
// kept reads real data. k local steps shrink a box by k*r per internal side, the halo width.
// The extents (box0, box1, box2) and the widths dropped on each side (drop0lo, drop0hi, ...:
// r on an internal side, 0 on a global edge) are size variables, so one kernel serves every
// box of every rank and every step.
#pragma once

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "distributed/BlockGrid.h"

namespace tessera::distributed {

using StencilBuilder = std::function<Expr(const std::vector<ArithExpr>& extents)>;

// The names of the box's size variables, outermost first.
std::vector<std::string> box_size_names(int dims);
// The names of the dropped widths: [d][0] low side, [d][1] high side.
std::vector<std::array<std::string, 2>> drop_size_names(int dims);

// `build` gives the one-input stencil step for grid extents; Error unless its result has its
// input's type (a step that can be repeated).
Expr local_step(const StencilBuilder& build, int dims);

// The radius of a step: the largest Pad width of the program (every catalog stencil pads each
// dimension by its radius). Error when a Pad width is not a constant.
int64_t pad_radius(const Expr& program);

// Whether the step's grid is periodic: every Pad wraps. Error when some wrap and others do
// not (a grid periodic along some dimensions only: the ranks form a torus or not).
bool is_periodic(const Expr& program);

} // namespace tessera::distributed
