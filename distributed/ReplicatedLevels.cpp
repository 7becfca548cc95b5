#include "distributed/ReplicatedLevels.h"

#include "compile/DeviceValues.h"
#include "distributed/HaloExchange.h"
#include "distributed/Rect.h"
#include "multigrid/CoarseCycle.h"
#include "runtime/Buffer.h"
#include "runtime/Session.h"

namespace tessera::distributed {

using namespace multigrid;

namespace {

// The faces of the gather: this rank's block to every other rank, and theirs into the same
// points here. Faces to distinct ranks may share a tag; the side tells the two ends of a pair
// apart (the lower rank sends from side 1, as a face and its mirror do).
std::vector<Face> block_faces(const BlockGrid& grid, int me, int size) {
  const Block mine = grid.block(grid.coords_of(me));
  std::vector<Face> faces;
  for (int q = 0; q < size; ++q) {
    if (q == me)
      continue;
    const Block theirs = grid.block(grid.coords_of(q));
    Face f;
    f.dim = 0;
    f.side = me < q ? 1 : 0;
    f.neighbour = q;
    f.send = Rect{grid.global, mine.offset, mine.extent};
    f.receive = Rect{grid.global, theirs.offset, theirs.extent};
    faces.push_back(f);
  }
  return faces;
}

// The box of `b` (its block and halos) within the grid `global`, where it lies inside it.
std::optional<Rect> box_in_grid(const Block& b, const std::vector<int64_t>& global) {
  Rect r{global, {}, b.extended()};
  for (std::size_t d = 0; d < global.size(); ++d) {
    r.offset.push_back(b.offset[d] - b.halo_lo[d]);
    if (r.offset[d] < 0 || r.offset[d] + r.extent[d] > global[d])
      return std::nullopt;
  }
  return r;
}

} // namespace

bool every_box_inside(const BlockGrid& grid, int ranks) {
  for (int r = 0; r < ranks; ++r)
    if (!box_in_grid(grid.block(grid.coords_of(r)), grid.global))
      return false;
  return true;
}

ReplicatedLevels::ReplicatedLevels(const Communicator& world, runtime::Session& session,
                                   const Problem& problem, const SolverOptions& options,
                                   const BlockGrid& grid, bool replicas_agree)
    : world_(world), session_(&session), mine_(grid.block(grid.coords_of(world.rank()))),
      global_(grid.global) {
  const ScalarKind kind = options.precision == Precision::F32 ? ScalarKind::F32 : ScalarKind::F64;
  exchange_ = std::make_unique<HaloExchange>(block_faces(grid, world_.rank(), world_.size()),
                                             element_bytes(kind), FaceStaging::Packing::OnDevice);
  exchange_->set_label("gathered level's block");
  // Alike on every rank: a rank that skipped the exchange its neighbour makes would leave it
  // waiting.
  box_exact_ = replicas_agree && every_box_inside(grid, world_.size());
  memory_ = std::make_unique<DeviceMemory>(session);
  tuner_ = std::make_unique<Tuner>(session, options.tuning);
  const Level whole{problem.dims, global_.front(), kind, problem.centring};
  hierarchy_ = std::make_unique<Hierarchy>(whole, problem.boundary, std::nullopt, options, *memory_,
                                           *tuner_);
  hierarchy_->build_kernels(); // in the set-up the ranks agree on
  launch_ = std::make_unique<CoarseCycle>(
      session,
      coarse_launch_points(options.coarse_launch_side, session.device().type, problem.dims));
}

ReplicatedLevels::~ReplicatedLevels() = default;

void ReplicatedLevels::gather(DeviceMemory& memory, BufferId box, BufferId whole) {
  const std::size_t bytes = element_bytes(memory.kind(box));
  const cl::Buffer& target = memory_->buffer(whole).handle();
  copy_rect(session_->queue(), memory.buffer(box).handle(), own_rect(mine_), target, own_in_grid(),
            bytes);
  exchange_->run(world_, session_->queue(), target);
}

void ReplicatedLevels::cycle(DeviceMemory& memory, BufferId f, BufferId u, CycleKind kind,
                             bool reads_solution) {
  LevelState& top = hierarchy_->finest();
  gather(memory, f, top.f);
  if (reads_solution) {
    gather(memory, u, top.solution());
  } else {
    const uint64_t zero = 0;
    const auto& start = memory_->buffer(top.solution());
    runtime::enqueue_fill(session_->queue(), start.handle(), start.bytes(), &zero,
                          element_bytes(memory_->kind(top.solution())), "the coarse levels' start");
  }
  enqueue_cycle(kind);
  const std::size_t bytes = element_bytes(memory.kind(u));
  const cl::Buffer& solution = memory_->buffer(top.solution()).handle();
  if (auto box = box_in_grid(mine_, global_))
    copy_rect(session_->queue(), solution, *box, memory.buffer(u).handle(), whole(mine_.extended()),
              bytes);
  else // (its halo is not exact: an exchange follows before it is read)
    copy_rect(session_->queue(), solution, own_in_grid(), memory.buffer(u).handle(),
              own_rect(mine_), bytes);
}

void ReplicatedLevels::enqueue_cycle(CycleKind kind) {
  LevelState& top = hierarchy_->finest();
  const std::pair<int, int> key{static_cast<int>(kind), top.current};
  auto found = cycles_.find(key);
  if (found == cycles_.end()) {
    Schedule s;
    hierarchy_->cycle_of_kind(s, kind);
    Schedule fused = launch_->fuse(s, *memory_);
    found = cycles_.emplace(key, std::make_pair(std::move(fused), top.current)).first;
  }
  found->second.first.enqueue(*memory_);
  top.current = found->second.second;
}

void ReplicatedLevels::share_host_memory() {
  exchange_->share_host_memory(world_);
}

std::size_t ReplicatedLevels::shared_faces() const {
  return exchange_->shared_faces();
}

uint64_t ReplicatedLevels::bytes_sent() const {
  return exchange_->bytes_sent();
}

void ReplicatedLevels::reset_count() {
  exchange_->reset_count();
}

} // namespace tessera::distributed
