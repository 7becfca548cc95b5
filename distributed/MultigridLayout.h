// The multigrid hierarchy of one rank of a grid distributed over MPI ranks: a multigrid::Layout
// (multigrid/Layout.h), so the solver, its levels, operators and cycles are the single-device
// code, run on this rank's block of every level.
//
// Every level is split over the same Cartesian grid of ranks (MPI_Dims_create; a torus for the
// wrap boundary) by BlockGrid, and a level's kernels run on the rank's block extended by a halo
// of 1 point (the operators' read radius; wider where asked) on its internal sides. Restriction and
// interpolation are the single-device kernels built for these boxes (Level::halo_lo): restriction
// averages the rank's own fine children (blocks have even extent and offset), interpolation reads
// the coarse box one point around, so neither needs a halo wider than 1 nor a copy. The kernels
// compute the whole box; the halo's outputs are exact only as deep as their inputs allow, and a
// halo exchange precedes a kernel where a read would not be exact on the block (launch: the
// schedule knows how deep each buffer is exact), so the block's outputs are (global edges pad as on
// one device). Red-black colours follow the global index (colour_shift).
//
// Agglomeration: a level whose blocks have fewer than `agglomerate_below` points (on the rank
// with the smallest block), or that does not split as the exact half of the finer level's
// blocks, moves to fewer ranks, in stages as HPGMG's sub-communicators do: where halving the
// ranks along each dimension split over an even number of them leaves several ranks and the
// level splits over them into blocks that coarsen, its right-hand side and solution move to
// the first ranks of the run (Redistribute.h), which run the rest of the hierarchy as a
// distributed hierarchy of their own (a MultigridLayout on their communicator, which
// agglomerates again further down), and the solution moves back; otherwise every rank gathers
// the whole level and runs the rest as a single-device hierarchy of its own
// (ReplicatedLevels.h). Norms are sums of squares over the blocks (on the device) reduced by
// MPI_Allreduce.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "distributed/BlockGrid.h"
#include "distributed/Mpi.h"
#include "multigrid/Hierarchy.h"
#include "multigrid/Solver.h"

namespace tessera::runtime {
class Session;
}

namespace tessera::distributed {

class ColourPacking;
class HaloExchange;
class ReplicatedLevels;

struct MultigridDecomposition {
  std::vector<int> ranks;                 // per dimension
  std::vector<std::vector<int64_t>> side; // per level: the global extents
  std::vector<BlockGrid> grids;           // per distributed level (halos included)
  std::size_t agglomerated = 0;           // the first level on fewer ranks; levels(): none
  std::size_t levels = 0;                 // of the whole hierarchy
  // The grid of ranks (the first ones of the run) the agglomerated levels are gathered onto,
  // planned again there; empty: rank 0 alone, as one device.
  std::vector<int> stage_ranks;
  bool agglomerates() const { return agglomerated < levels; }
};

// The widths of the levels' halos: 1, the operators' read radius, unless a wider one is asked
// for. A wider halo lets one exchange serve several kernels (fewer messages of more bytes, and
// the halo's points computed on both ranks): on the coarse levels, where an exchange costs its
// latency rather than its bytes, that saves most of their exchanges.
struct HaloWidths {
  int64_t finest = 1; // level 0
  int64_t coarse = 1; // every coarser distributed level
};

// The plan, the same on every rank: an Error on every rank when the finest blocks do not halve
// (a block with an odd extent or offset) or are thinner than their halo; a coarser level whose
// blocks are thinner than its halo is agglomerated.
MultigridDecomposition plan_decomposition(int size, std::vector<int> ranks,
                                          const multigrid::Problem& problem,
                                          const multigrid::SolverOptions& options,
                                          int64_t agglomerate_below, HaloWidths halos = {});

// The default of `agglomerate_below`: the points of a block below which a level and the coarser
// ones leave the ranks' blocks. Where every rank has a GPU, a halo exchange costs its latency
// (the queue waited for, two transfers through host memory: 50-100 us on an H200), nine a level
// and V(2,2) cycle, far more than a small level's kernels, and gathering a level of a few
// million points costs less: blocks below 2^22 / `ranks` points, so that the gathered level,
// which every rank receives whole, stays below 2^22 points (two H200, 512^3 f64, levels gathered
// from blocks of 2^20 points on: 9.1 ms a V(2,2) cycle; from 2^17: 9.5-9.8 ms; from 2^11:
// 10.1-10.5 ms). On CPUs an exchange is a copy in memory and the replicas of the coarse cycle
// share the cores: 4096.
int64_t default_agglomerate_below(bool every_rank_a_gpu, int ranks);

// Whether `exchange` should carry one colour after half-sweeps on a device of this type
// (Device::type).
bool colour_exchanges_pay(const HaloExchange& exchange, const std::string& device_type);

class MultigridLayout : public multigrid::Layout {
public:
  // `session`: this rank's device (not owned). Rank 0 (or, with stages, each rank of the next
  // stage, with that stage's layout) builds the agglomerated levels' hierarchy on it here.
  // `halos`: plan_decomposition's (a further stage's levels all take the coarse width).
  // `agglomerate_below` negative: default_agglomerate_below for the ranks' devices.
  MultigridLayout(Communicator world, runtime::Session& session, const multigrid::Problem& problem,
                  const multigrid::SolverOptions& options, int64_t agglomerate_below,
                  std::vector<int> ranks = {}, HaloWidths halos = {});
  ~MultigridLayout() override;

  bool distributed() const override { return true; }
  multigrid::Level local(const multigrid::Level& global, std::size_t l) const override;
  int colour_shift(std::size_t l) const override;
  bool agglomerated(std::size_t l) const override { return l == plan_.agglomerated; }
  bool builds_in_set_up() const override { return true; }
  void launch(multigrid::Schedule& s, std::size_t l, const std::string& label,
              std::shared_ptr<multigrid::CompiledKernel> kernel,
              const std::vector<multigrid::Read>& reads, multigrid::BufferId output) override;
  void launch_half_sweep(multigrid::Schedule& s, std::size_t l, const std::string& label,
                         std::shared_ptr<multigrid::CompiledKernel> kernel,
                         const std::vector<multigrid::Read>& reads, multigrid::BufferId output,
                         int colour) override;
  void fill_zero(multigrid::Schedule& s, std::size_t l, const std::string& label,
                 multigrid::BufferId buffer) override;
  void coarse_cycle(multigrid::Schedule& s, std::size_t l, const multigrid::LevelState& level,
                    multigrid::CycleKind kind, bool zero_start) override;
  void write(multigrid::DeviceMemory& memory, multigrid::BufferId id, std::size_t l,
             const std::vector<double>& values) override;
  std::vector<double> read(multigrid::DeviceMemory& memory, multigrid::BufferId id,
                           std::size_t l) override;
  double norm(multigrid::DeviceMemory& memory, multigrid::BufferId id, std::size_t l,
              multigrid::Blas& blas) override;
  void start_counting() override; // cycle 1 starts (a barrier): the halo bytes count from it
  // Exchanges overlapped with the kernels that need them (on by default; before the schedules
  // are built).
  void set_overlap(bool on) { overlap_ = on; }
  // Exchanges after a half-sweep carry the colour it wrote alone (on by default, on the levels
  // where that pays: colour_exchanges_pay; before the schedules are built).
  void set_colour_exchanges(bool on) { colour_exchanges_ = on; }
  // Collective over the layout's ranks (its later stages' too), before the first cycle: faces
  // between ranks of one host travel through memory they share, not MPI messages
  // (SharedFaces.h). `tessera solve` does this unless --same-host-faces mpi.
  void share_host_memory();
  // How many of this rank's faces (all levels and stages) travel through shared memory.
  std::size_t shared_faces() const;

  const MultigridDecomposition& plan() const { return plan_; }
  int64_t agglomerate_below() const { return agglomerate_below_; } // as resolved
  const Block& block(std::size_t l) const { return blocks_.at(l); }
  uint64_t halo_bytes() const; // sent by this rank, its later stages' exchanges included
  uint64_t halo_bytes(std::size_t l) const; // sent by this rank for level l
  uint64_t exchanges(std::size_t l) const;  // of level l's halos (since start_counting)
  // This rank's time in level l's halo exchanges (HaloExchange::seconds), and its wall time in
  // the agglomerated levels (moving them and their cycle), since start_counting: where a cycle
  // spends time outside the kernels.
  double exchange_seconds(std::size_t l) const;
  double agglomerated_seconds() const { return agglomerated_seconds_; }

private:
  // A halo exchange: of `buffer` of `level`, every point (colour -1) or one colour's.
  struct Exchange {
    std::size_t level;
    multigrid::BufferId buffer;
    int colour;
  };
  // launch, and launch_half_sweep's kernel writing the points of colour `half_sweep` alone.
  void launch_colours(multigrid::Schedule& s, std::size_t l, const std::string& label,
                      std::shared_ptr<multigrid::CompiledKernel> kernel,
                      const std::vector<multigrid::Read>& reads, multigrid::BufferId output,
                      int half_sweep);
  // Appends the exchange; afterwards the halo (of its colour) is exact.
  void exchange(multigrid::Schedule& s, const Exchange& e);
  // Records what the exchange made exact, the other colour as deep as before it.
  void mark_exchanged(multigrid::Schedule& s, const Exchange& e, int before0, int before1) const;
  // Where it can, appends the launch of a kernel of level l that needs the exchange of
  // `exchanged` (of level l, or of level l - 1 for a kernel that reads the finer level)
  // overlapped with it: the exchange begun, the kernel on the points that
  // read none of the halo, the exchange ended, the kernel on the rest. False: nothing appended
  // (overlap off, faces of several dimensions, a kernel that cannot run on part of its range,
  // a block too thin).
  bool launch_overlapped(multigrid::Schedule& s, std::size_t l, const std::string& label,
                         const std::shared_ptr<multigrid::CompiledKernel>& kernel,
                         const std::vector<multigrid::Read>& reads, multigrid::BufferId output,
                         const Exchange& e);
  // How deep the output of a kernel of level l is exact through `read`, given how deep the
  // schedule knows the read buffer's halo exact; negative: not even the block's own points.
  int exact_through(const multigrid::Schedule& s, std::size_t l, const multigrid::Read& read) const;
  // The halo of level l's boxes (0 beyond the distributed levels).
  int halo(std::size_t l) const;
  // The block's own points of a level's buffer, in the block's row-major order, and back (the
  // halo zero).
  std::vector<double> own(multigrid::DeviceMemory& memory, multigrid::BufferId id, std::size_t l);
  void write_own(multigrid::DeviceMemory& memory, multigrid::BufferId id, std::size_t l,
                 const std::vector<double>& mine);
  // A device buffer of level l's own points packed (allocated once per memory plan and level;
  // `id` itself where the box has no halo), and that buffer filled from `id` (enqueued).
  multigrid::BufferId own_copy(multigrid::DeviceMemory& memory, multigrid::BufferId id,
                               std::size_t l);
  multigrid::BufferId pack_own(multigrid::DeviceMemory& memory, multigrid::BufferId id,
                               std::size_t l);
  // The blocks of the agglomerated level here and on the next stage's ranks, and on those
  // ranks the next stage's layout (collective).
  void plan_stage(const multigrid::Problem& problem, int64_t side, int64_t coarse_halo);
  // The cycle of the agglomerated level l on the ranks of the next stage (stage_); without
  // `reads_solution` it starts from zeros.
  void staged_cycle(multigrid::DeviceMemory& memory, multigrid::BufferId f, multigrid::BufferId u,
                    std::size_t l, multigrid::CycleKind kind, bool reads_solution);

  Communicator world_, cart_;
  runtime::Session* session_;
  multigrid::SolverOptions options_;
  MultigridDecomposition plan_;
  int64_t agglomerate_below_ = 0;
  std::vector<Block> blocks_; // this rank's, per distributed level
  std::vector<std::unique_ptr<HaloExchange>> exchanges_;
  std::vector<uint64_t> exchange_counts_; // per distributed level
  double agglomerated_seconds_ = 0;
  bool overlap_ = true;
  bool colour_exchanges_ = true;
  std::unique_ptr<ColourPacking> colour_packing_; // with more than one rank
  // Staged agglomeration: per rank of the run its block of the agglomerated level, and its
  // block of the next stage's first level (none beyond the stage's ranks); on the stage's
  // ranks, the stage's layout.
  std::vector<Block> stage_from_, stage_to_;
  std::unique_ptr<MultigridLayout> stage_;
  // The agglomerated levels on a rank of the next stage.
  std::unique_ptr<multigrid::DeviceMemory> coarse_memory_;
  std::unique_ptr<multigrid::Tuner> coarse_tuner_;
  std::unique_ptr<multigrid::Hierarchy> coarse_;
  // Without a further stage: the whole agglomerated level on every rank.
  std::unique_ptr<ReplicatedLevels> replicated_;
  // Per level whose box has halos: a buffer of the block's own points, for norms on the device.
  // Keyed by the memory plan too: a layout may serve several solvers.
  std::map<std::pair<const multigrid::DeviceMemory*, std::size_t>, multigrid::BufferId> own_copies_;
};

} // namespace tessera::distributed
