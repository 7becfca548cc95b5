// A distributed stencil sweep: the global grid split into blocks over the ranks (a Cartesian grid
// of ranks from MPI_Dims_create, a torus for the wrap boundary), one OpenCL device per rank, and
// per exchange period one halo exchange of width radius x k followed by k rank-local steps
// (LocalStep.h) that keep every global boundary exactly as on one device. With overlap the
// interior (computable from the block's own data) is enqueued before the exchange and runs
// while the halos travel; the shell around it follows.
//
// The initial grid is a pure function of the global index and the seed, so every decomposition
// starts from the same data, and the checksum (a sum over the points of a hash of the global
// index and the value's bits) is independent of the decomposition: equal checksums mean the
// same result, bit for bit.
#pragma once

#include <atomic>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "distributed/BlockGrid.h"
#include "distributed/LocalStep.h"
#include "distributed/Mpi.h"

namespace tessera::runtime {
class Session;
}

namespace tessera::distributed {

struct SweepConfig {
  std::string name = "stencil"; // kernel names
  StencilBuilder build;         // the one-input step at given extents (Pad included)
  std::vector<int64_t> global;  // grid extents, outermost first
  int steps = 1;                // k: fused steps per halo exchange
  bool overlap = true;          // interior during the exchange
  std::vector<int> ranks;       // per dimension; empty: MPI_Dims_create
  std::string device;           // spec (round robin over the matches on a host)
  // A session to run on instead (not owned; its built kernels are reused by later sweeps).
  runtime::Session* session = nullptr;
  uint32_t seed = 1;
  // Lowers the local step (empty: the explored best variant when `tuning_database` has one
  // for the rank's block on its device, checked against the plain step; else
  // rewrite::lower_default).
  std::function<Expr(const Expr&)> lower;
  std::filesystem::path tuning_database; // empty: none
  // Work-group size of every launch, OpenCL's dimension 0 first (empty: the explored best
  // variant's, else the kernel's own, else the implementation's). The tests give 1x1x1: one
  // work-group shape for every box, so PoCL prepares each kernel once.
  std::vector<int64_t> local;
  // Called on this rank as each phase of start() and run() begins ("opening the device", ...),
  // for a user who wants to see where a slow set-up spends its time (sweep --verbose).
  std::function<void(const std::string& phase)> progress;
};

struct SweepTotals {
  double seconds = 0;          // the slowest rank's time of the iterations
  double exchange_seconds = 0; // the slowest rank's time in halo exchanges
  uint64_t halo_bytes = 0;     // sent by all ranks
  int64_t launches = 0;        // kernel launches of this rank
  int periods = 0;             // exchange periods run (fewer than asked when stopped)
  bool interrupted = false;    // `stop` ended the run early
};

class DistributedSweep {
public:
  // Plans the decomposition: the same on every rank, so a refusal (a grid too small for the
  // ranks, a step that cannot be repeated) is an Error on every rank before any message.
  DistributedSweep(Communicator world, SweepConfig config);
  ~DistributedSweep();

  // Opens this rank's device, builds its kernels and loads its block of the initial grid.
  void start();
  // `iterations` exchange periods (iterations x steps steps in all). `stop` (e.g. the Ctrl-C
  // flag) is read after every period and agreed on by every rank: when it is set on any, all end
  // after the same period (totals.interrupted).
  SweepTotals run(int iterations, const std::atomic<bool>* stop = nullptr);

  uint64_t checksum() const;
  // Rank 0: the whole grid in global row-major order; other ranks: empty.
  std::vector<double> gather() const;

  const BlockGrid& grid() const { return grid_; }
  const Block& block() const { return block_; }
  std::string device_description() const;
  // Which lowering this rank runs and why (after start()).
  const std::string& lowering() const { return lowering_; }
  ScalarKind element() const { return element_; }
  // Wall seconds of start() on this rank (device, kernels, initial values, warm-up period).
  double setup_seconds() const { return setup_seconds_; }

private:
  struct Device;
  std::vector<unsigned char> own_bytes() const;
  // One exchange period; returns the seconds spent in the halo exchange.
  double period(bool traced = false); // traced: report each part (the warm-up period)
  // The local step's lowering: config.lower, or the explored best variant if it passes the
  // check against the plain step, or the plain one.
  // Sets local_ to the work-group its launches use.
  Expr choose_lowering(const Expr& step);
  // Whether one step of `chosen` equals the plain step's on the block's initial values.
  bool same_as_plain(const Expr& chosen, const Expr& step);
  void report(const std::string& phase) const;
  // The block's initial values in row-major order (the pure function of the global index).
  std::vector<unsigned char> initial_block() const;
  std::string lowering_;
  double setup_seconds_ = 0;
  std::vector<int64_t> local_;

  Communicator world_, cart_;
  SweepConfig config_;
  BlockGrid grid_;
  Block block_;
  std::vector<Box> boxes_;
  ScalarKind element_ = ScalarKind::F32;
  std::unique_ptr<Device> device_;
};

// The initial value at a global linear index (floating kinds: [-1, 1); integers: 0 or 1).
double initial_value(uint64_t index, uint32_t seed, ScalarKind kind);

} // namespace tessera::distributed
