// The rank-local step: the stencil's own step at a region's constant sizes (the whole extended
// block, or a shell box), Pad included, run k times on that region in place of the grid. It is
// exact wherever the region reaches h = r k beyond the outputs it must give on every side that
// is not a global edge:
// - on a side that is a global edge the Pad is exactly the single-device boundary (clamp,
//   mirror, antisymmetric and constant read only the r elements next to their own edge; wrap is
//   kept only along a dimension with one rank, where both edges are the global ones);
// - on any other side the Pad's values are wrong, and each step carries them r outputs deeper:
//   after k steps h deep, which is the margin the region has there.
// So the k steps give the global k steps on the region less h on those sides.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "distributed/BlockGrid.h"

namespace tessera::distributed {

using StencilBuilder = std::function<Expr(const std::vector<ArithExpr>& extents)>;

// The step `build` gives at these constant extents; Error unless it has one input and its
// result has its input's type (a step that can be repeated).
Expr repeatable_step(const StencilBuilder& build, const std::vector<int64_t>& extents);

// The radius of a step: the largest Pad width of the program (every catalog stencil pads each
// dimension by its radius). Error when a Pad width is not a constant.
int64_t pad_radius(const Expr& program);

// Whether the step's grid is periodic: every Pad wraps. Error when some wrap and others do
// not (a grid periodic along some dimensions only: the ranks form a torus or not).
bool is_periodic(const Expr& program);

} // namespace tessera::distributed
