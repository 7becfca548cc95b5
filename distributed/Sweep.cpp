#include "distributed/Sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <map>

#include "compile/DeviceLimits.h"
#include "core/Error.h"
#include "distributed/BestVariant.h"
#include "distributed/DeviceChoice.h"
#include "distributed/GridValues.h"
#include "distributed/HaloExchange.h"
#include "distributed/Rect.h"
#include "distributed/StepKernel.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Lower.h"
#include "runtime/Buffer.h"
#include "runtime/Session.h"
#include "stencils/Iterated.h"

namespace tessera::distributed {

struct DistributedSweep::Device {
  std::unique_ptr<runtime::Session> owned; // when the config gives no session
  runtime::Session& session;
  cl::CommandQueue transfers;
  // The extended block at the start of a period and after it, and the intermediate of the
  // block's k steps (k >= 2; they alternate between it and `next`).
  runtime::RawBuffer extended, next, scratch;
  // The shell boxes' input and their steps' two intermediates, as large as the largest box.
  runtime::RawBuffer box, a, b;
  std::unique_ptr<StepKernel> block_kernel; // the step over E, its sizes constants
  // The step over each shell box's input region, by its extents.
  std::map<std::vector<int64_t>, std::unique_ptr<StepKernel>> shell_kernels;
  std::unique_ptr<HaloExchange> exchange;
  explicit Device(runtime::Session& s) : session(s) {
    transfers = cl::CommandQueue(session.context(), session.device().device);
  }
  explicit Device(std::unique_ptr<runtime::Session> s) : owned(std::move(s)), session(*owned) {
    transfers = cl::CommandQueue(session.context(), session.device().device);
  }
  int64_t launches() const {
    int64_t n = block_kernel->launches();
    for (const auto& [extent, kernel] : shell_kernels)
      n += kernel->launches();
    return n;
  }
};

namespace {

// "35 MB", "4.3 GB".
std::string bytes_text(uint64_t bytes) {
  const auto b = static_cast<double>(bytes);
  return b < 1e9 ? cat(std::round(b / 1e6), " MB") : cat(std::round(b / 1e8) / 10, " GB");
}

} // namespace

DistributedSweep::DistributedSweep(Communicator world, SweepConfig config)
    : world_(std::move(world)), config_(std::move(config)) {
  const int dims = static_cast<int>(config_.global.size());
  if (dims < 1 || dims > 3)
    user_error(cat("a distributed sweep needs a grid of 1 to 3 dimensions, got ", dims));
  if (config_.steps < 1)
    user_error(cat("--steps must be at least 1, got ", config_.steps));
  Expr step = repeatable_step(config_.build, config_.global);
  Type in = input_types(step).at(0);
  element_ = in.innermost().scalar_kind();
  grid_.global = config_.global;
  grid_.ranks = config_.ranks.empty() ? world_.balanced_dims(dims) : config_.ranks;
  int product = 1;
  for (int r : grid_.ranks)
    product *= r;
  if (product != world_.size())
    user_error(cat("ranks ", extents_text({grid_.ranks.begin(), grid_.ranks.end()}), " make ",
                   product, " ranks, the run has ", world_.size()));
  grid_.radius = pad_radius(step);
  grid_.steps = config_.steps;
  grid_.periodic = is_periodic(step);
  grid_.validate();
  cart_ = world_.cartesian(grid_.ranks, grid_.periodic);
  block_ = grid_.block(grid_.coords_of(world_.rank()));
  boxes_ = boxes(block_, grid_.radius, grid_.steps, config_.overlap);
  // The block's step at its extended block's sizes: built (and a given lowering applied) here,
  // so that a size the stencil refuses is found on every rank before any message.
  block_step_ = repeatable_step(config_.build, block_.extended());
  if (config_.lower)
    given_lowering_ = config_.lower(block_step_);
}

DistributedSweep::~DistributedSweep() = default;

std::string DistributedSweep::device_description() const {
  return device_ ? device_->session.device().description() : "(not started)";
}

std::vector<unsigned char> DistributedSweep::initial_block() const {
  const std::size_t eb = element_bytes(element_);
  std::vector<unsigned char> host(static_cast<std::size_t>(block_.points()) * eb);
  parallel_for_each_point(block_, grid_.global, [&](unsigned, int64_t local, uint64_t g) {
    store(element_, initial_value(g, config_.seed, element_), host.data() + local * eb);
  });
  return host;
}

void DistributedSweep::report(const std::string& phase) const {
  if (config_.progress)
    config_.progress(phase);
}

void DistributedSweep::prepare() {
  if (prepared_)
    return;
  const double t0 = wall_seconds();
  report("opening the device");
  device_ = config_.session ? std::make_unique<Device>(*config_.session)
                            : std::make_unique<Device>(std::make_unique<runtime::Session>(
                                  device_for_rank(config_.device, world_.host_rank())));
  check_device_memory();
  build();
  prepared_ = true;
  prepare_seconds_ = wall_seconds() - t0;
}

void DistributedSweep::check_device_memory() const {
  const BufferPlan plan = buffer_plan();
  const auto& d = device_->session.device();
  const auto [memory, largest] = runtime::usable_memory(d);
  if (plan.block_bytes > largest || plan.total() > memory)
    user_error(cat("the extended block ", extents_text(block_.extended()), " needs ",
                   bytes_text(plan.total()), " in ", plan.block_buffers, " buffers of ",
                   bytes_text(plan.block_bytes), " (and the shell's) on ", d.name, ", which has ",
                   bytes_text(memory), " (largest buffer ", bytes_text(largest),
                   "): use more ranks (more devices), fewer --steps or a smaller grid"));
}

void DistributedSweep::build() {
  auto& dev = *device_;
  const std::size_t eb = element_bytes(element_);
  const BufferPlan plan = buffer_plan();
  report(cat("allocating ", plan.block_buffers, " device buffers of ", plan.block_bytes,
             " bytes (the extended block) and ", plan.shell_bytes > 0 ? 3 : 0, " of ",
             plan.shell_bytes, " (the largest shell box)"));
  dev.extended = runtime::RawBuffer(dev.session, plan.block_bytes);
  dev.next = runtime::RawBuffer(dev.session, plan.block_bytes);
  if (plan.block_buffers == 3)
    dev.scratch = runtime::RawBuffer(dev.session, plan.block_bytes);
  const int dims = static_cast<int>(block_.extent.size());
  report("choosing and building the block's kernel");
  Expr lowered = choose_lowering();
  if (!local_.empty())
    lowering_ += cat(", work-group ", extents_text(local_));
  dev.block_kernel =
      std::make_unique<StepKernel>(dev.session, lowered, cat(config_.name, "_block"), local_);
  if (plan.shell_bytes > 0) {
    dev.box = runtime::RawBuffer(dev.session, plan.shell_bytes);
    dev.a = runtime::RawBuffer(dev.session, plan.shell_bytes);
    dev.b = runtime::RawBuffer(dev.session, plan.shell_bytes);
    for (std::size_t i = 1; i < boxes_.size(); ++i) {
      auto& kernel = dev.shell_kernels[boxes_[i].in_extent];
      if (!kernel)
        kernel = std::make_unique<StepKernel>(
            dev.session,
            rewrite::lower_default(repeatable_step(config_.build, boxes_[i].in_extent)),
            cat(config_.name, "_shell"), config_.local);
    }
  }
  std::vector<std::vector<int>> neighbours;
  for (int d = 0; d < dims; ++d)
    neighbours.push_back({cart_.neighbour(d, 0), cart_.neighbour(d, 1)});
  dev.exchange =
      std::make_unique<HaloExchange>(halo_faces(block_, grid_.halo(), neighbours), eb,
                                     FaceStaging::Packing::Transfer, config_.exchange_piece_bytes);
}

DistributedSweep::BufferPlan DistributedSweep::buffer_plan() const {
  const std::size_t eb = element_bytes(element_);
  BufferPlan plan;
  plan.block_bytes = static_cast<std::size_t>(whole(block_.extended()).points()) * eb;
  plan.block_buffers = config_.steps > 1 ? 3 : 2;
  for (std::size_t i = 1; i < boxes_.size(); ++i)
    plan.shell_bytes = std::max(plan.shell_bytes,
                                static_cast<std::size_t>(whole(boxes_[i].in_extent).points()) * eb);
  return plan;
}

std::size_t DistributedSweep::shared_faces() const {
  return device_ ? device_->exchange->shared_faces() : 0;
}

void DistributedSweep::start() {
  prepare();
  const double t0 = wall_seconds();
  auto& dev = *device_;
  // A collective: here, after every rank's prepare() (which may fail on one rank alone), and
  // alike on every rank (a second start is refused by the exchange, which has run by then).
  if (config_.shared_host_memory && cart_.size() > 1)
    dev.exchange->share_host_memory(cart_);
  const std::size_t eb = element_bytes(element_);
  // The block's initial values (halos are filled by the first exchange).
  report("computing the block's initial values");
  const std::vector<unsigned char> host = initial_block();
  // One period untimed (the device finishes its kernels' first-launch preparation, the MPI
  // connections open), then the initial grid again.
  report("writing the block, one warm-up period");
  write_rect(dev.session.queue(), dev.extended.handle(), own_rect(block_), eb, host.data());
  period(true);
  write_rect(dev.session.queue(), dev.extended.handle(), own_rect(block_), eb, host.data());
  dev.session.finish();
  setup_seconds_ = prepare_seconds_ + wall_seconds() - t0;
  report(cat("set up in ", setup_seconds_, " s"));
}

Expr DistributedSweep::choose_lowering() {
  local_ = config_.local;
  block_program_steps_ = 1;
  if (given_lowering_) {
    lowering_ = "the given lowering";
    return *given_lowering_;
  }
  const int k = config_.steps;
  TunedLookup where{config_.tuning_database,
                    device_->session.device().identity(),
                    config_.name,
                    block_.extended(),
                    {}};
  // The variants as `tessera explore --steps k` enumerated them on this device.
  explore::apply_device_limits(where.control, device_->session.device());
  auto& fused_steps = where.control.temporal_steps;
  if (std::find(fused_steps.begin(), fused_steps.end(), k) == fused_steps.end())
    fused_steps.push_back(k);
  LocalVariant best = best_local_variant(where, block_step_);
  // k steps in one program (temporal blocking) when it was measured faster than k single ones.
  if (k >= 2) {
    LocalVariant fused = best_local_variant(where, stencils::iterate_program(block_step_, k));
    const double single_ms = best.program ? best.median_ms : best.baseline_ms;
    if (fused.program && (single_ms == 0 || fused.median_ms < k * single_ms)) {
      fused.description =
          cat(k, " steps in one program: ", fused.description, ", ", fused.median_ms,
              " ms against ", k, " x ", single_ms == 0 ? "(unmeasured)" : cat(single_ms), " ms");
      best = fused;
      block_program_steps_ = k;
    }
  }
  lowering_ = best.description;
  if (local_.empty())
    local_ = best.local;
  bool same = false;
  if (best.program) {
    try {
      same = same_as_plain(*best.program);
    } catch (const Error&) {
      if (local_ == config_.local)
        throw;
      // The explored work-group no longer launches (a driver's limits changed): automatic.
      local_ = config_.local;
      same = same_as_plain(*best.program);
    }
  }
  if (best.program && !same) {
    lowering_ = "plain lowering (the explored best variant differs from the plain step)";
    best.program.reset();
    local_ = config_.local;
    block_program_steps_ = 1;
  }
  return best.program ? *best.program : rewrite::lower_default(block_step_);
}

bool DistributedSweep::same_as_plain(const Expr& chosen) {
  auto& dev = *device_;
  const std::size_t eb = element_bytes(element_);
  Block whole_block{{}, std::vector<int64_t>(block_.extent.size(), 0), block_.extended(), {}, {},
                    {}};
  const int64_t points = whole_block.points();
  const auto bytes = static_cast<std::size_t>(points) * eb;
  std::vector<unsigned char> host(bytes);
  parallel_for_each_point(whole_block, whole_block.extent, [&](unsigned, int64_t i, uint64_t) {
    store(element_, initial_value(static_cast<uint64_t>(i), config_.seed, element_),
          host.data() + i * eb);
  });
  // The chosen program once and the plain step as many times as it has steps, on the extended
  // block, every side a global edge.
  report("checking the explored variant against the plain step");
  std::vector<std::vector<unsigned char>> results;
  runtime::RawBuffer in(dev.session, bytes), a(dev.session, bytes), b(dev.session, bytes);
  auto run = [&](const Expr& lowered, int times) {
    in.write(host.data(), bytes);
    StepKernel kernel(dev.session, lowered, cat(config_.name, "_check"), local_);
    const cl::Buffer* from = &in.handle();
    for (int t = 0; t < times; ++t) {
      const cl::Buffer& to = t % 2 == 0 ? a.handle() : b.handle();
      kernel.enqueue(*from, to);
      from = &to;
    }
    dev.session.finish();
    results.emplace_back(bytes);
    (times % 2 == 1 ? a : b).read(results.back().data(), bytes);
  };
  run(chosen, 1);
  run(rewrite::lower_default(block_step_), block_program_steps_);
  for (int64_t i = 0; i < points; ++i) {
    double x = load(element_, results[0].data() + i * eb);
    double y = load(element_, results[1].data() + i * eb);
    if (!(std::abs(x - y) <= 1e-5 * std::max(1.0, std::abs(y))))
      return false;
  }
  return true;
}

void DistributedSweep::enqueue_block_steps() {
  auto& dev = *device_;
  const int k = config_.steps / block_program_steps_; // launches of the block's program
  const cl::Buffer* in = &dev.extended.handle();
  for (int s = 0; s < k; ++s) { // the last one writes `next`
    const cl::Buffer& out = (k - 1 - s) % 2 == 0 ? dev.next.handle() : dev.scratch.handle();
    dev.block_kernel->enqueue(*in, out);
    in = &out;
  }
}

void DistributedSweep::enqueue_shell_box(const Box& box) {
  auto& dev = *device_;
  auto& queue = dev.session.queue();
  const std::size_t eb = element_bytes(element_);
  const auto extended = block_.extended();
  copy_rect(queue, dev.extended.handle(), Rect{extended, box.in_offset, box.in_extent},
            dev.box.handle(), whole(box.in_extent), eb);
  StepKernel& kernel = *dev.shell_kernels.at(box.in_extent);
  const cl::Buffer* in = &dev.box.handle();
  for (int s = 0; s < config_.steps; ++s) {
    const cl::Buffer& out = s % 2 == 0 ? dev.a.handle() : dev.b.handle();
    kernel.enqueue(*in, out);
    in = &out;
  }
  // The exact outputs: the box less h on the sides that are not global edges.
  std::vector<int64_t> from(box.out_offset.size()), to(box.out_offset.size());
  for (std::size_t d = 0; d < from.size(); ++d) {
    to[d] = box.out_offset[d] + block_.halo_lo[d];
    from[d] = to[d] - box.in_offset[d];
  }
  copy_rect(queue, *in, Rect{box.in_extent, from, box.out_extent}, dev.next.handle(),
            Rect{extended, to, box.out_extent}, eb);
}

double DistributedSweep::period(bool traced) {
  auto trace = [&](const char* what) {
    if (traced)
      report(what);
  };
  auto& dev = *device_;
  auto& queue = dev.session.queue();
  const bool overlapped = boxes_.size() > 1;
  // With overlap the block's steps run while the halos travel: they read E's halos while the
  // exchange rewrites them, but those values reach only the outputs within h of an internal
  // side, which the shell boxes then overwrite with exact ones.
  if (overlapped) {
    trace("period: the block's steps (the interior exact)");
    enqueue_block_steps();
    queue.flush();
  }
  trace("period: the halo exchange");
  double e0 = wall_seconds();
  dev.exchange->run(cart_, dev.transfers, dev.extended.handle());
  double exchange = wall_seconds() - e0;
  if (overlapped) {
    trace("period: the shell boxes");
    for (std::size_t i = 1; i < boxes_.size(); ++i)
      enqueue_shell_box(boxes_[i]);
  } else {
    trace("period: the block's steps");
    enqueue_block_steps();
  }
  dev.session.finish();
  trace("period: done");
  std::swap(dev.extended, dev.next);
  return exchange;
}

SweepTotals DistributedSweep::run(int iterations, const std::atomic<bool>* stop) {
  if (!device_)
    internal_error("DistributedSweep::run before start");
  if (iterations < 1)
    user_error(cat("--iterations must be at least 1, got ", iterations));
  if (const char* fail = std::getenv("TESSERA_FAIL_RANK"))
    if (std::atoi(fail) == world_.rank())
      throw Error(cat("device error injected for testing (TESSERA_FAIL_RANK=", fail, ")"));
  auto& dev = *device_;
  uint64_t sent_before = dev.exchange->bytes_sent();
  int64_t launches_before = dev.launches();
  report(cat("running ", iterations, " periods"));
  world_.barrier();
  double exchange = 0, t0 = wall_seconds();
  SweepTotals totals;
  for (int it = 0; it < iterations && !totals.interrupted; ++it) {
    exchange += period();
    ++totals.periods;
    // Collective: every rank ends after the same period.
    if (stop && it + 1 < iterations)
      totals.interrupted = world_.sum(uint64_t{stop->load() ? 1u : 0u}) > 0;
  }
  report("periods done");
  double seconds = wall_seconds() - t0;
  totals.seconds = world_.max(seconds);
  totals.exchange_seconds = world_.max(exchange);
  totals.halo_bytes = world_.sum(dev.exchange->bytes_sent() - sent_before);
  totals.launches = dev.launches() - launches_before;
  return totals;
}

std::vector<unsigned char> DistributedSweep::own_bytes() const {
  const std::size_t eb = element_bytes(element_);
  std::vector<unsigned char> host(static_cast<std::size_t>(block_.points()) * eb);
  read_rect(device_->session.queue(), device_->extended.handle(), own_rect(block_), eb,
            host.data());
  return host;
}

uint64_t DistributedSweep::checksum() const {
  const std::size_t eb = element_bytes(element_);
  auto host = own_bytes();
  std::vector<uint64_t> sums(kMaxThreads * 8, 0); // per thread, a cache line apart; modulo 2^64
  parallel_for_each_point(block_, grid_.global, [&](unsigned t, int64_t local, uint64_t g) {
    uint64_t bits = 0;
    std::memcpy(&bits, host.data() + local * eb, eb);
    sums[t * 8] += mix(mix(g) ^ bits);
  });
  uint64_t sum = 0;
  for (uint64_t part : sums)
    sum += part;
  return world_.sum(sum);
}

std::vector<double> DistributedSweep::gather() const {
  const std::size_t eb = element_bytes(element_);
  auto parts = world_.gather(own_bytes());
  if (parts.empty())
    return {};
  int64_t total = 1;
  for (auto e : grid_.global)
    total *= e;
  std::vector<double> grid(static_cast<std::size_t>(total));
  for (std::size_t r = 0; r < parts.size(); ++r) {
    Block b = grid_.block(grid_.coords_of(static_cast<int>(r)));
    for_each_point(b, grid_.global, [&](int64_t local, uint64_t g) {
      grid[g] = load(element_, parts[r].data() + local * eb);
    });
  }
  return grid;
}

} // namespace tessera::distributed
