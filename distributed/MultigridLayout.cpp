#include "distributed/MultigridLayout.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "core/Error.h"
#include "distributed/ColourPacking.h"
#include "distributed/DeviceChoice.h"
#include "distributed/HaloExchange.h"
#include "distributed/Rect.h"
#include "distributed/Redistribute.h"
#include "distributed/ReplicatedLevels.h"
#include "distributed/StepKernel.h"
#include "multigrid/Blas.h"
#include "multigrid/Hierarchy.h"
#include "runtime/Buffer.h"
#include "runtime/ClError.h"
#include "runtime/Session.h"

namespace tessera::distributed {

using namespace multigrid;

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// For each row of the block's own points (a run along the innermost dimension), in row-major
// order: its first point's index in the extended block and in the global grid `global`, and
// its length. Rows, not points: a 512^3 block is 2^18 rows of 512 points, copied whole.
template <class Row>
void for_each_row(const Block& b, const std::vector<int64_t>& global, Row row) {
  const std::size_t dims = b.extent.size();
  const auto ext = b.extended();
  int64_t rows = 1;
  for (std::size_t d = 0; d + 1 < dims; ++d)
    rows *= b.extent[d];
  std::vector<int64_t> i(dims, 0);
  for (int64_t n = 0; n < rows; ++n) {
    int64_t e = 0, g = 0;
    for (std::size_t d = 0; d < dims; ++d) {
      e = e * ext[d] + b.halo_lo[d] + i[d];
      g = g * global[d] + b.offset[d] + i[d];
    }
    row(e, g, b.extent[dims - 1]);
    for (int d = static_cast<int>(dims) - 2; d >= 0; --d) {
      if (++i[static_cast<std::size_t>(d)] < b.extent[static_cast<std::size_t>(d)])
        break;
      i[static_cast<std::size_t>(d)] = 0;
    }
  }
}

// Whether every rank's block of `coarse` is exactly half its block of `fine`, and at least as
// thick as the halo along the dimensions split over several ranks.
bool halves(const BlockGrid& fine, const BlockGrid& coarse, int size) {
  for (int r = 0; r < size; ++r) {
    Block f = fine.block(fine.coords_of(r)), c = coarse.block(coarse.coords_of(r));
    for (std::size_t d = 0; d < f.extent.size(); ++d)
      if (c.extent[d] < 1 || f.offset[d] != 2 * c.offset[d] || f.extent[d] != 2 * c.extent[d] ||
          (coarse.ranks[d] > 1 && c.extent[d] < coarse.halo()))
        return false;
  }
  return true;
}

// The thinnest block of the grid along a dimension split over several ranks (INT64_MAX: none).
int64_t thinnest_block(const BlockGrid& g, int size) {
  int64_t thinnest = INT64_MAX;
  for (int r = 0; r < size; ++r) {
    const Block b = g.block(g.coords_of(r));
    for (std::size_t d = 0; d < b.extent.size(); ++d)
      if (g.ranks[d] > 1)
        thinnest = std::min(thinnest, b.extent[d]);
  }
  return thinnest;
}

// A coarse level's halo: the width asked for, but no wider than its thinnest block (at least 1:
// a level too thin for that is agglomerated, as with halos of 1).
int64_t coarse_halo(int64_t asked, const BlockGrid& g, int size) {
  return std::max<int64_t>(1, std::min(asked, thinnest_block(g, size)));
}

int64_t smallest_block(const BlockGrid& g, int size) {
  int64_t smallest = INT64_MAX;
  for (int r = 0; r < size; ++r)
    smallest = std::min(smallest, g.block(g.coords_of(r)).points());
  return smallest;
}

// The problem of an agglomerated level for the plan and the layout of the next stage: its
// grid, boundary and centring (the right-hand side comes with each cycle).
Problem level_problem(const Problem& problem, int64_t side) {
  Problem p;
  p.name = problem.name;
  p.dims = problem.dims;
  p.n = side;
  p.centring = problem.centring;
  p.boundary = problem.boundary;
  return p;
}

// The halos of the next stage's levels (on the grid of ranks `stage`, of `count` ranks): every
// one a coarse level's, its first too.
HaloWidths stage_halos(const MultigridDecomposition& p, const std::vector<int>& stage, int count,
                       int64_t coarse) {
  const BlockGrid first{p.side[p.agglomerated], stage, p.grids[0].periodic, 1, 1};
  return {coarse_halo(coarse, first, count), coarse};
}

// The next stage's grid of ranks: half the ranks along each dimension split over an even number
// of them (1 along the others); none where that is one rank or where the agglomerated level
// does not split over them into blocks that coarsen.
std::vector<int> stage_ranks(const MultigridDecomposition& p, const Problem& problem,
                             const SolverOptions& options, int64_t agglomerate_below,
                             int64_t halo) { // the coarse levels
  std::vector<int> stage;
  int count = 1;
  for (int r : p.ranks) {
    stage.push_back(r % 2 == 0 ? r / 2 : 1);
    count *= stage.back();
  }
  if (count < 2)
    return {};
  try {
    plan_decomposition(count, stage, level_problem(problem, p.side[p.agglomerated][0]), options,
                       agglomerate_below, stage_halos(p, stage, count, halo));
  } catch (const Error&) {
    return {};
  }
  return stage;
}

std::vector<unsigned char> as_bytes(const std::vector<double>& v) {
  std::vector<unsigned char> bytes(v.size() * sizeof(double));
  std::memcpy(bytes.data(), v.data(), bytes.size());
  return bytes;
}

std::vector<double> as_doubles(const std::vector<unsigned char>& bytes) {
  std::vector<double> v(bytes.size() / sizeof(double));
  std::memcpy(v.data(), bytes.data(), v.size() * sizeof(double));
  return v;
}

} // namespace

MultigridDecomposition plan_decomposition(int size, std::vector<int> ranks, const Problem& problem,
                                          const SolverOptions& options, int64_t agglomerate_below,
                                          HaloWidths halos) {
  if (problem.centring != Centring::Cell)
    user_error("the distributed solver runs cell-centred grids (vertex-centred blocks do not "
               "halve): leave out --centring vertex");
  if (options.fused_gauss_seidel)
    user_error("the distributed solver runs red-black Gauss-Seidel as two half-sweeps: leave out "
               "the fused red-black step");
  if (options.precision == Precision::Mixed || problem.helmholtz)
    user_error("the distributed solver runs the Poisson problems in f64 or f32: mixed "
               "precision, line smoothers and the variable-coefficient operator run on one "
               "device");
  if (agglomerate_below < 0)
    user_error(cat("--agglomerate must be at least 0, got ", agglomerate_below));
  if (halos.finest < 1)
    user_error(
        cat("--halo must be at least 1 (the operators read one point around), got ", halos.finest));
  if (halos.coarse < 1)
    user_error(cat("--coarse-halo must be at least 1 (the operators read one point around), got ",
                   halos.coarse));
  const int64_t halo = halos.finest;
  const int dims = problem.dims;
  MultigridDecomposition p;
  p.ranks = std::move(ranks);
  int product = 1;
  for (int r : p.ranks)
    product *= r;
  if (static_cast<int>(p.ranks.size()) != dims || product != size)
    internal_error("ranks that do not match the run");
  // The levels of the single-device hierarchy.
  Level whole{dims, problem.n, ScalarKind::F64, problem.centring};
  while (true) {
    p.side.push_back(std::vector<int64_t>(dims, whole.n));
    if (!whole.can_coarsen() || whole.n <= options.coarsest)
      break;
    whole = whole.coarser();
  }
  p.levels = p.side.size();
  const bool periodic = problem.boundary.kind == Boundary::Wrap;
  std::vector<BlockGrid> grids;
  for (const auto& side : p.side) {
    grids.push_back(BlockGrid{side, p.ranks, periodic, halo, 1});
    if (grids.size() > 1)
      grids.back().radius = coarse_halo(halos.coarse, grids.back(), size);
  }
  for (int r = 0; r < size; ++r) {
    const Block b = grids[0].block(grids[0].coords_of(r));
    for (int d = 0; d < dims; ++d)
      if (p.ranks[d] > 1 && b.extent[d] < halo)
        user_error(cat("the grid ", extents_text(p.side[0]), " split over ",
                       extents_text({p.ranks.begin(), p.ranks.end()}), " ranks has blocks of ",
                       b.extent[d], " points along dimension ", d, ", thinner than the halo of ",
                       halo, ": use a smaller --halo, fewer ranks or a larger --size"));
  }
  grids[0].validate();
  // The last level that halves the blocks of every finer one.
  std::size_t aligned = 0;
  while (aligned + 1 < p.levels && halves(grids[aligned], grids[aligned + 1], size))
    ++aligned;
  if (aligned == 0)
    user_error(cat("the grid ", extents_text(p.side[0]), " split over ",
                   extents_text({p.ranks.begin(), p.ranks.end()}),
                   " ranks has blocks of odd extent or offset, which do not coarsen on their "
                   "rank: use a side divisible by twice the ranks along each dimension"));
  p.agglomerated = p.levels;
  for (std::size_t l = 1; l <= aligned && p.agglomerated == p.levels; ++l)
    if (smallest_block(grids[l], size) < agglomerate_below)
      p.agglomerated = l;
  if (p.agglomerated == p.levels && aligned + 1 < p.levels)
    p.agglomerated = aligned; // the next level does not halve: agglomerate before it
  // The halos: BlockGrid's radius already.
  const std::size_t last = p.agglomerates() ? p.agglomerated : p.levels - 1;
  for (std::size_t l = 0; l <= last; ++l) {
    grids[l].validate();
    p.grids.push_back(grids[l]);
  }
  if (p.agglomerates())
    p.stage_ranks = stage_ranks(p, problem, options, agglomerate_below, halos.coarse);
  return p;
}

namespace {

// Whether a level's exchanges of one colour pay: they save half of each face's bytes and cost a
// packing and an unpacking kernel per face where the whole face moves without one (whole planes
// are one contiguous read). Measured on 2 H200 (512^3 V(2,2), one call): the finest level's 2 MiB
// faces 5.0 -> 2.9 ms of exchanges a cycle, 512 KiB faces even, 32 KiB faces 0.23 -> 0.49 ms;
// PoCL (its transfers are copies in host memory) gains from 32 KiB faces up.
constexpr std::size_t kColourFaceBytesGpu = std::size_t{1} << 20;

} // namespace

void MultigridLayout::share_host_memory() {
  if (world_.size() > 1)
    for (auto& e : exchanges_)
      e->share_host_memory(cart_);
  if (stage_)
    stage_->share_host_memory();
  if (replicated_ && world_.size() > 1)
    replicated_->share_host_memory();
}

std::size_t MultigridLayout::shared_faces() const {
  std::size_t n = stage_ ? stage_->shared_faces() : 0;
  if (replicated_)
    n += replicated_->shared_faces();
  for (const auto& e : exchanges_)
    n += e->shared_faces();
  return n;
}

int64_t default_agglomerate_below(bool every_rank_a_gpu, int ranks) {
  return every_rank_a_gpu ? std::max<int64_t>(4096, (int64_t{1} << 22) / std::max(ranks, 1)) : 4096;
}

bool colour_exchanges_pay(const HaloExchange& exchange, const std::string& device_type) {
  return device_type != "GPU" || exchange.largest_face_bytes() >= kColourFaceBytesGpu;
}

MultigridLayout::MultigridLayout(Communicator world, runtime::Session& session,
                                 const Problem& problem, const SolverOptions& options,
                                 int64_t agglomerate_below, std::vector<int> ranks,
                                 HaloWidths halos)
    : world_(std::move(world)), session_(&session), options_(options) {
  if (problem.dims < 1 || problem.dims > 3)
    user_error(cat("multigrid grids have 1, 2 or 3 dimensions, got ", problem.dims));
  if (ranks.empty())
    ranks = world_.balanced_dims(problem.dims);
  // Every collective of the set-up (a further stage's too) comes before the kernel builds,
  // which may fail on one rank alone: that rank goes on to the set-up's agreement
  // (SetupAgreement.h), which the others must then reach too, not wait in another collective.
  const RankDevices devices = agree_on_devices(world_, session.device());
  agglomerate_below_ = agglomerate_below >= 0
                           ? agglomerate_below
                           : default_agglomerate_below(devices.all_gpus, world_.size());
  plan_ = plan_decomposition(world_.size(), ranks, problem, options, agglomerate_below_, halos);
  cart_ = world_.cartesian(plan_.ranks, problem.boundary.kind == Boundary::Wrap);
  const int64_t side = plan_.agglomerates() ? plan_.side[plan_.agglomerated][0] : 0;
  if (plan_.agglomerates() && !plan_.stage_ranks.empty())
    plan_stage(problem, side, halos.coarse);
  const auto coords = plan_.grids[0].coords_of(world_.rank());
  std::vector<std::vector<int>> neighbours;
  for (int d = 0; d < problem.dims; ++d)
    neighbours.push_back({cart_.neighbour(d, 0), cart_.neighbour(d, 1)});
  const ScalarKind kind = options.precision == Precision::F32 ? ScalarKind::F32 : ScalarKind::F64;
  for (const auto& g : plan_.grids) {
    blocks_.push_back(g.block(coords));
    exchanges_.push_back(
        std::make_unique<HaloExchange>(halo_faces(blocks_.back(), g.halo(), neighbours),
                                       element_bytes(kind), FaceStaging::Packing::OnDevice));
    // (every rank alike: both ends of a face must pack it the same way)
    if (world_.size() < 2 ||
        !colour_exchanges_pay(*exchanges_.back(), devices.all_gpus ? "GPU" : "CPU"))
      continue;
    if (!colour_packing_) // its kernels built only where a level uses them
      colour_packing_ = std::make_unique<ColourPacking>(session, element_bytes(kind));
    exchanges_.back()->colour_packing(colour_packing_.get(), colour_shift(blocks_.size() - 1));
  }
  exchange_counts_.assign(exchanges_.size(), 0);
  if (!plan_.agglomerates())
    return;
  if (plan_.stage_ranks.empty()) {
    // Kernels chosen by timing on each rank (--tune explore) may differ between the replicas.
    const bool replicas_agree = devices.same && options_.tuning.mode == TuneMode::Default;
    replicated_ =
        std::make_unique<ReplicatedLevels>(world_, session, level_problem(problem, side), options_,
                                           plan_.grids[plan_.agglomerated], replicas_agree);
  } else if (stage_) {
    Level coarse{problem.dims, side, kind, problem.centring};
    coarse_memory_ = std::make_unique<DeviceMemory>(session);
    coarse_tuner_ = std::make_unique<Tuner>(session, options_.tuning);
    coarse_ = std::make_unique<Hierarchy>(coarse, problem.boundary, std::nullopt, options_,
                                          *coarse_memory_, *coarse_tuner_, stage_.get());
    coarse_->build_kernels(); // in the set-up the ranks agree on (builds_in_set_up)
  }
}

void MultigridLayout::plan_stage(const Problem& problem, int64_t side, int64_t coarse_halo) {
  int count = 1;
  for (int r : plan_.stage_ranks)
    count *= r;
  const BlockGrid& here = plan_.grids[plan_.agglomerated];
  const BlockGrid next{plan_.side[plan_.agglomerated], plan_.stage_ranks, here.periodic, 1, 1};
  for (int r = 0; r < world_.size(); ++r) {
    stage_from_.push_back(here.block(here.coords_of(r)));
    stage_to_.push_back(r < count ? next.block(next.coords_of(r)) : Block{});
  }
  if (auto part = world_.first(count))
    stage_ = std::make_unique<MultigridLayout>(
        *part, *session_, level_problem(problem, side), options_, agglomerate_below_,
        plan_.stage_ranks, stage_halos(plan_, plan_.stage_ranks, count, coarse_halo));
}

MultigridLayout::~MultigridLayout() = default;

Level MultigridLayout::local(const Level& global, std::size_t l) const {
  if (l >= blocks_.size())
    return global;
  Level box = global;
  box.box = blocks_[l].extended();
  box.halo_lo = blocks_[l].halo_lo;
  box.halo_hi = blocks_[l].halo_hi;
  return box;
}

int MultigridLayout::colour_shift(std::size_t l) const {
  if (l >= blocks_.size())
    return 0;
  int64_t sum = 0;
  for (std::size_t d = 0; d < blocks_[l].offset.size(); ++d)
    sum += blocks_[l].offset[d] - blocks_[l].halo_lo[d];
  return static_cast<int>(((sum % 2) + 2) % 2);
}

int MultigridLayout::halo(std::size_t l) const {
  return l < plan_.grids.size() ? static_cast<int>(plan_.grids[l].halo()) : 0;
}

void MultigridLayout::fill_zero(Schedule& s, std::size_t l, const std::string& label,
                                BufferId buffer) {
  s.fill_zero(label, buffer);
  s.set_exact_halo(buffer, halo(l)); // zeros are exact everywhere
}

void MultigridLayout::coarse_cycle(Schedule& s, std::size_t l, const LevelState& level,
                                   CycleKind kind, bool zero_start) {
  if (l != plan_.agglomerated)
    internal_error(cat("level ", l, " is not agglomerated"));
  const BufferId f = level.f, u = level.solution();
  // Every rank knows zero_start alike: the gathers are collective.
  const bool reads_solution = !zero_start && kind != CycleKind::F;
  // Solved on every rank: enqueued behind the kernels before it, its writes before those after
  // it. Moved to a further stage: the queue is finished first.
  const bool ordered_by_queue = replicated_ != nullptr;
  s.host(
      "agglomerated",
      [this, l, f, u, kind, reads_solution](DeviceMemory& memory) {
        const auto start = std::chrono::steady_clock::now();
        if (replicated_)
          replicated_->cycle(memory, f, u, kind, reads_solution);
        else
          staged_cycle(memory, f, u, l, kind, reads_solution);
        agglomerated_seconds_ += seconds_since(start);
      },
      {u}, ordered_by_queue);
  if (replicated_ && replicated_->box_exact())
    s.set_exact_halo(u, halo(l));
}

void MultigridLayout::staged_cycle(DeviceMemory& memory, BufferId f, BufferId u, std::size_t l,
                                   CycleKind kind, bool reads_solution) {
  auto rhs = redistribute(world_, own(memory, f, l), stage_from_, stage_to_);
  auto solution = reads_solution ? redistribute(world_, own(memory, u, l), stage_from_, stage_to_)
                                 : std::vector<double>(rhs.size(), 0.0);
  std::vector<double> mine;
  if (stage_) {
    LevelState& top = coarse_->finest();
    stage_->write_own(*coarse_memory_, top.f, 0, rhs);
    stage_->write_own(*coarse_memory_, top.solution(), 0, solution);
    Schedule c;
    coarse_->cycle_of_kind(c, kind);
    c.run(*coarse_memory_);
    mine = stage_->own(*coarse_memory_, top.solution(), 0);
  }
  write_own(memory, u, l, redistribute(world_, mine, stage_to_, stage_from_));
}

void MultigridLayout::write_own(DeviceMemory& memory, BufferId id, std::size_t l,
                                const std::vector<double>& mine) {
  const Block& b = blocks_.at(l);
  if (static_cast<int64_t>(mine.size()) != b.points())
    internal_error(cat("level ", l, ": ", mine.size(), " values for a block of ", b.points()));
  // The block's own points packed on the device, copied into place; the halo zero.
  const BufferId packed = own_copy(memory, id, l);
  write_values(memory, packed, mine);
  if (packed != id) {
    auto& queue = memory.session().queue();
    const uint64_t zero = 0; // (runtime::enqueue_fill: NVIDIA's fills of 2^31 units and more)
    runtime::enqueue_fill(queue, memory.buffer(id).handle(), memory.buffer(id).bytes(), &zero,
                          element_bytes(memory.kind(id)), "a block's halo with zeros");
    copy_rect(queue, memory.buffer(packed).handle(), whole(b.extent), memory.buffer(id).handle(),
              own_rect(b), element_bytes(memory.kind(id)));
    memory.session().finish();
  }
}

std::vector<double> MultigridLayout::own(DeviceMemory& memory, BufferId id, std::size_t l) {
  // Packed on the device first: one contiguous read (rectangle reads cost a transfer per row).
  return read_values(memory, pack_own(memory, id, l));
}

BufferId MultigridLayout::own_copy(DeviceMemory& memory, BufferId id, std::size_t l) {
  const Block& b = blocks_.at(l);
  if (b.extended() == b.extent)
    return id;
  auto [at, fresh] = own_copies_.try_emplace({&memory, l});
  if (fresh)
    at->second = memory.allocate(cat("own points of level ", l), memory.kind(id), b.points());
  if (memory.kind(at->second) != memory.kind(id))
    internal_error(cat("level ", l, ": own points of two scalar kinds"));
  return at->second;
}

BufferId MultigridLayout::pack_own(DeviceMemory& memory, BufferId id, std::size_t l) {
  const BufferId packed = own_copy(memory, id, l);
  if (packed != id)
    copy_rect(memory.session().queue(), memory.buffer(id).handle(), own_rect(blocks_.at(l)),
              memory.buffer(packed).handle(), whole(blocks_.at(l).extent),
              element_bytes(memory.kind(id)));
  return packed;
}

void MultigridLayout::write(DeviceMemory& memory, BufferId id, std::size_t l,
                            const std::vector<double>& values) {
  std::vector<double> host(static_cast<std::size_t>(memory.count(id)), 0.0);
  int64_t total = 1;
  for (auto e : plan_.side.at(l))
    total *= e;
  if (static_cast<int64_t>(values.size()) != total)
    internal_error(cat("level ", l, ": ", values.size(), " values for a grid of ", total));
  for_each_row(blocks_.at(l), plan_.side.at(l), [&](int64_t e, int64_t g, int64_t n) {
    std::copy_n(values.begin() + g, n, host.begin() + e);
  });
  write_values(memory, id, host);
}

std::vector<double> MultigridLayout::read(DeviceMemory& memory, BufferId id, std::size_t l) {
  auto parts = world_.gather(as_bytes(own(memory, id, l)));
  if (parts.empty())
    return {};
  int64_t total = 1;
  for (auto e : plan_.side.at(l))
    total *= e;
  std::vector<double> grid(static_cast<std::size_t>(total));
  for (std::size_t r = 0; r < parts.size(); ++r) {
    const BlockGrid& g = plan_.grids.at(l);
    const Block b = g.block(g.coords_of(static_cast<int>(r)));
    auto values = as_doubles(parts[r]);
    if (static_cast<int64_t>(values.size()) != b.points())
      internal_error(
          cat("rank ", r, " sent ", values.size(), " values of a block of ", b.points()));
    // The packed own points are the block's rows in order.
    int64_t at = 0;
    Block packed = b;
    packed.halo_lo.assign(b.extent.size(), 0);
    packed.halo_hi.assign(b.extent.size(), 0);
    for_each_row(packed, g.global, [&](int64_t, int64_t global_index, int64_t n) {
      std::copy_n(values.begin() + at, n, grid.begin() + global_index);
      at += n;
    });
  }
  return grid;
}

// On the device (CLBlast's Nrm2): the block's own points, in place where they are one run of
// the box (slabs: halos along the outermost dimension alone), else copied out of it first (the
// copy was 2 of the 2.5 ms of the norm on two H200 at 1024^3); only one number per rank crosses
// to the host. Reading the block to the host instead cost 0.63 s per cycle for a 512^3 f64
// block on an H200 (rectangle reads of 4 KiB rows).
double MultigridLayout::norm(DeviceMemory& memory, BufferId id, std::size_t l, Blas& blas) {
  const auto run = contiguous_run(own_rect(blocks_.at(l)), 1);
  const double mine =
      run ? blas.nrm2(id, run->offset, run->bytes) : blas.nrm2(pack_own(memory, id, l));
  return std::sqrt(world_.sum(mine * mine));
}

void MultigridLayout::start_counting() {
  // Cycle 1 starts on every rank at once: what the set-up did on the host (the start state
  // written) takes each rank its own time, and the first exchange would charge the difference
  // to cycle 1 (1.4 s of a 69 ms cycle on two H200 at 1024^3).
  world_.barrier();
  for (auto& e : exchanges_)
    e->reset_count();
  exchange_counts_.assign(exchanges_.size(), 0);
  agglomerated_seconds_ = 0;
  if (replicated_)
    replicated_->reset_count();
  if (stage_)
    stage_->start_counting();
}

uint64_t MultigridLayout::halo_bytes(std::size_t l) const {
  return l < exchanges_.size() ? exchanges_[l]->bytes_sent() : 0;
}

double MultigridLayout::exchange_seconds(std::size_t l) const {
  return l < exchanges_.size() ? exchanges_[l]->seconds() : 0;
}

uint64_t MultigridLayout::exchanges(std::size_t l) const {
  return l < exchange_counts_.size() ? exchange_counts_[l] : 0;
}

uint64_t MultigridLayout::halo_bytes() const {
  uint64_t bytes = stage_ ? stage_->halo_bytes() : 0;
  for (const auto& e : exchanges_)
    bytes += e->bytes_sent();
  return bytes;
}

} // namespace tessera::distributed
