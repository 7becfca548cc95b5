// A level's own points moved between two block decompositions of the same global grid (the
// ranks of a level and the fewer ranks its coarse levels are gathered onto: MultigridLayout's
// stages). Every rank sends the part of its block that lies in each block of the other
// decomposition, as one message per pair of overlapping blocks.
#pragma once

#include <vector>

#include "distributed/BlockGrid.h"
#include "distributed/Mpi.h"

namespace tessera::distributed {

// The own points of this rank's block in `from` (row-major, from[rank].points() values) to
// those of its block in `to` (returned, to[rank].points() values). `from` and `to` hold a block
// per rank of `world` (no extents: none), each covering the grid once; only offset and extent
// are read. Every rank of `world` must call it.
std::vector<double> redistribute(const Communicator& world, const std::vector<double>& mine,
                                 const std::vector<Block>& from, const std::vector<Block>& to);

} // namespace tessera::distributed
