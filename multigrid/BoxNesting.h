// How a rank's box of one level nests in its box of the next coarser level (internal to
// multigrid/): the halos on each side, the points by which the refined coarse box exceeds the
// fine box, and the fine grid cut or padded to exactly the children of the coarse box.
#pragma once

#include <cstdint>
#include <utility>

#include "dsl/Dsl.h"
#include "multigrid/Operators.h"

namespace tessera::multigrid::detail {

// The halo below the box along dimension k (0 without halos), and above it.
int64_t halo_below(const Level& level, int k);
int64_t halo_above(const Level& level, int k);

// The same box one level finer, with the same halos (a level's own box on one rank; a whole
// grid's next finer grid).
Level finer_box(const Level& coarse);

// f applied along dimension k of a grid (at nesting level k).
Fun along(int k, Fun f);

// How many points of the refined coarse box lie beyond the fine box below and above along
// dimension k: a coarse halo of hc refines to 2 hc points, of which the fine box keeps its own
// halo hf. Negative where the fine halo reaches further than the refined coarse one.
std::pair<int64_t, int64_t> refined_excess(const Level& coarse, const Level& fine, int k);

// Dimension k of a grid less `lo` points below and `hi` above; a negative count pads by that
// many clamped points instead (never exact: the schedule's halo bookkeeping knows, Layout.h).
Val trim(Val grid, int k, int64_t lo, int64_t hi);

// Both levels are whole grids, or both boxes whose sides next to another rank are the same
// (blocks halve: Level::halo_lo), and the fine box is the refined coarse box less the excess.
void check_boxes(const Level& coarse, const Level& fine);

// A grid of the fine box (of any element: values, neighbourhoods, tuples) cut or padded to the
// refinement of the coarse box, so that its 2^d blocks are the children of the coarse box's
// points in order. Whole grids are returned as they are.
Val children_of_coarse_box(Val fine_grid, const Level& coarse, const Level& fine);

} // namespace tessera::multigrid::detail
