// The agglomerated levels of a distributed multigrid hierarchy, solved on every rank at once.
// Each visit gathers the level's right-hand side (and solution, where the cycle reads it) from
// the ranks' blocks onto every rank, as a halo exchange whose faces are the blocks themselves
// (HaloExchange.h: through host memory shared by the ranks of a host, messages between hosts),
// then every rank runs the same cycle of the coarse levels on its own device (a single-device
// hierarchy, its small levels in one launch) and takes its box of the new solution.
//
// Against gathering the level on rank 0 and broadcasting its solution: no rank waits for another
// one's cycle, nothing is broadcast, and no step waits for the device except the gather's reads,
// so earlier (larger) levels pay for themselves: their exchanges, nine a level and cycle of a
// V(2,2) cycle, are what two GPUs waited for. The replicas compute the same values where every
// rank runs the same kernels on the same device model and driver; then each rank's halo of the
// new solution is exact too (box_exact) and the interpolation that reads it needs no exchange.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>

#include "distributed/BlockGrid.h"
#include "distributed/Mpi.h"
#include "distributed/Rect.h"
#include "multigrid/Hierarchy.h"
#include "multigrid/Solver.h"

namespace tessera::multigrid {
class CoarseCycle;
}

namespace tessera::distributed {

class HaloExchange;

// Whether the box (block and halos) of every rank of `grid` lies inside the grid: a torus's
// boxes wrap around its edges. The same answer on every rank, as the schedules' exchanges must be.
bool every_box_inside(const BlockGrid& grid, int ranks);

class ReplicatedLevels {
public:
  // `grid` splits the agglomerated level over the ranks of `world` in rank order (world's rank
  // r holds the block of grid.coords_of(r)), `problem` is that level's (its grid, boundary and
  // centring); the coarse hierarchy's kernels are built here. `replicas_agree`, the same on
  // every rank: every rank computes the same values (the same device model and driver, and
  // the same kernels: none chosen by timing on each rank).
  ReplicatedLevels(const Communicator& world, runtime::Session& session,
                   const multigrid::Problem& problem, const multigrid::SolverOptions& options,
                   const BlockGrid& grid, bool replicas_agree);
  ~ReplicatedLevels();

  // Enqueued on the session's queue (it waits only for the gather's reads): the cycle `kind`
  // (F: full multigrid) of the level whose box buffers on this rank are f and u (memory's),
  // starting from u's values with `reads_solution`, else from zeros; u's box is left holding
  // the new solution.
  void cycle(multigrid::DeviceMemory& memory, multigrid::BufferId f, multigrid::BufferId u,
             multigrid::CycleKind kind, bool reads_solution);
  // Whether u's halo holds exact values after cycle(), alike on every rank: the replicas agree
  // and every rank's box lies inside the grid (every_box_inside).
  bool box_exact() const { return box_exact_; }

  // As HaloExchange's, for the gathers.
  void share_host_memory();
  std::size_t shared_faces() const;
  uint64_t bytes_sent() const;
  void reset_count();

private:
  // The block of u or f (a box buffer of memory) into the same points of `whole`, then every
  // other rank's block into `whole` from that rank.
  void gather(multigrid::DeviceMemory& memory, multigrid::BufferId box, multigrid::BufferId whole);
  // One cycle of the coarse hierarchy, enqueued (its schedule fused once per kind and parity).
  void enqueue_cycle(multigrid::CycleKind kind);
  // This rank's own points within the whole level.
  Rect own_in_grid() const { return {global_, mine_.offset, mine_.extent}; }

  Communicator world_;
  runtime::Session* session_;
  Block mine_;                  // this rank's block of the level, with its box's halos
  std::vector<int64_t> global_; // the level's extents
  bool box_exact_ = false;
  std::unique_ptr<HaloExchange> exchange_;
  std::unique_ptr<multigrid::DeviceMemory> memory_;
  std::unique_ptr<multigrid::Tuner> tuner_;
  std::unique_ptr<multigrid::Hierarchy> hierarchy_;
  std::unique_ptr<multigrid::CoarseCycle> launch_;
  std::map<std::pair<int, int>, std::pair<multigrid::Schedule, int>> cycles_;
};

} // namespace tessera::distributed
