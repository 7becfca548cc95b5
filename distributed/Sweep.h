// A distributed stencil sweep: the global grid split into blocks over the ranks (a Cartesian grid
// of ranks from MPI_Dims_create, a torus for the wrap boundary), one OpenCL device per rank, and
// per exchange period one halo exchange of width h = radius x k and k steps. A rank computes its
// extended block E (the block and its halos) in place with the stencil's own step at E's
// constant sizes, the kernel `tessera explore` would choose for a grid of that size: on a global
// edge its Pad is the grid's boundary, and on an internal side the values it invents reach only
// r outputs deeper per step, h after k steps, which lie in the halo. With overlap these k steps
// run before the halos arrive (exact on the interior: the block less h on its internal sides);
// the shell between the interior and the halos follows: small boxes, each with the same step at
// its own sizes (LocalStep.h).
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
#include <optional>
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
  // Lowers the block's step, the stencil at the rank's extended block's sizes (empty: the
  // explored best variant when `tuning_database` has one for that size on the rank's device,
  // checked against the plain step; else rewrite::lower_default). Called by the constructor.
  std::function<Expr(const Expr&)> lower;
  std::filesystem::path tuning_database; // empty: none
  // Work-group size of every launch, OpenCL's dimension 0 first (empty: the explored best
  // variant's for the block's step, else the kernel's own, else the implementation's). The tests
  // give 1x1x1: one work-group shape for every shell box, so PoCL prepares that kernel once.
  std::vector<int64_t> local;
  // The halo faces move in pieces of about this many bytes, each sent as soon as it is on the
  // host (HaloExchange.h); the tests make it small so that their small faces are cut too.
  std::size_t exchange_piece_bytes = std::size_t{2} << 20;
  // Faces between ranks of one host travel through memory they share (SharedFaces.h), not MPI
  // messages.
  bool shared_host_memory = true;
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

  // Opens this rank's device, allocates its buffers and builds its kernels, without a message
  // to another rank (so that a failure can be agreed on: SetupAgreement.h). Error when the
  // buffers would not fit the device (the sizes and what would). Called by start() unless
  // called before.
  void prepare();
  // prepare(), then the block's initial values and one warm-up period.
  void start();
  // `iterations` exchange periods (iterations x steps steps in all). `stop` (e.g. the Ctrl-C
  // flag) is read after every period and agreed on by every rank: when it is set on any, all end
  // after the same period (totals.interrupted).
  SweepTotals run(int iterations, const std::atomic<bool>* stop = nullptr);

  uint64_t checksum() const;
  // Rank 0: the whole grid in global row-major order; other ranks: empty.
  std::vector<double> gather() const;

  const BlockGrid& grid() const { return grid_; }
  // How many of this rank's halo faces travel through memory shared with their neighbour
  // (SweepConfig::shared_host_memory; after start()).
  std::size_t shared_faces() const;
  const Block& block() const { return block_; }
  std::string device_description() const;
  // Which lowering this rank runs and why (after start()).
  const std::string& lowering() const { return lowering_; }
  ScalarKind element() const { return element_; }
  // Wall seconds of start() on this rank (device, kernels, initial values, warm-up period).
  double setup_seconds() const { return setup_seconds_; }

private:
  struct Device;
  // The device buffers: extended, next and (k >= 2) scratch of the extended block's bytes; box,
  // a and b of the largest shell box's input (none without a shell).
  struct BufferPlan {
    std::size_t block_bytes = 0, shell_bytes = 0;
    int block_buffers = 2;
    uint64_t total() const {
      return block_buffers * uint64_t{block_bytes} + 3 * uint64_t{shell_bytes};
    }
  };
  BufferPlan buffer_plan() const;
  // Error when the buffers would not fit the device (what they need, what it has).
  void check_device_memory() const;
  // Allocates the buffers, chooses and builds the kernels, stages the exchange.
  void build();
  bool prepared_ = false;
  double prepare_seconds_ = 0;
  std::vector<unsigned char> own_bytes() const;
  // One exchange period; returns the seconds spent in the halo exchange.
  double period(bool traced = false); // traced: report each part (the warm-up period)
  // The block program's lowering: config.lower's; or the explored best variant, of one step or
  // of k steps in one program (whichever was measured faster), if it passes the check against
  // the plain step; or the plain one. Sets local_ to the work-group its launches use and
  // block_program_steps_.
  Expr choose_lowering();
  // Whether `chosen` (block_program_steps_ steps) equals the plain steps on the extended block.
  bool same_as_plain(const Expr& chosen);
  // The k steps of the block's kernel over E, from `extended` into `next`.
  void enqueue_block_steps();
  // The k steps of one shell box, from `extended` (its halos exact) into `next`.
  void enqueue_shell_box(const Box& box);
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
  Expr block_step_;                    // the step at the extended block's constant sizes
  std::optional<Expr> given_lowering_; // config.lower's lowering of block_step_
  int block_program_steps_ = 1;        // steps of one launch of the block's program: 1 or k
  ScalarKind element_ = ScalarKind::F32;
  std::unique_ptr<Device> device_;
};

} // namespace tessera::distributed
