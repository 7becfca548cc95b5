#include "distributed/Sweep.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>

#include "core/Error.h"
#include "distributed/BestVariant.h"
#include "distributed/DeviceChoice.h"
#include "distributed/HaloExchange.h"
#include "distributed/Rect.h"
#include "distributed/StepKernel.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Lower.h"
#include "runtime/Buffer.h"
#include "runtime/Session.h"

namespace tessera::distributed {

namespace {

uint64_t mix(uint64_t x) { // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void store(ScalarKind kind, double value, unsigned char* out) {
  switch (kind) {
  case ScalarKind::F32: {
    float v = static_cast<float>(value);
    std::memcpy(out, &v, sizeof v);
    return;
  }
  case ScalarKind::F64:
    std::memcpy(out, &value, sizeof value);
    return;
  case ScalarKind::I32: {
    auto v = static_cast<int32_t>(value);
    std::memcpy(out, &v, sizeof v);
    return;
  }
  case ScalarKind::U8:
  case ScalarKind::Bool:
    *out = static_cast<unsigned char>(value);
    return;
  }
}

double load(ScalarKind kind, const unsigned char* in) {
  switch (kind) {
  case ScalarKind::F32: {
    float v;
    std::memcpy(&v, in, sizeof v);
    return v;
  }
  case ScalarKind::F64: {
    double v;
    std::memcpy(&v, in, sizeof v);
    return v;
  }
  case ScalarKind::I32: {
    int32_t v;
    std::memcpy(&v, in, sizeof v);
    return v;
  }
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return *in;
  }
  return 0;
}

// Calls f(local linear index, global linear index) for every point of the block, in order.
template <class F> void for_each_point(const Block& b, const std::vector<int64_t>& global, F f) {
  const std::size_t dims = b.extent.size();
  std::vector<int64_t> i(dims, 0);
  for (int64_t local = 0; local < b.points(); ++local) {
    uint64_t g = 0;
    for (std::size_t d = 0; d < dims; ++d)
      g = g * static_cast<uint64_t>(global[d]) + static_cast<uint64_t>(b.offset[d] + i[d]);
    f(local, g);
    for (int d = static_cast<int>(dims) - 1; d >= 0; --d) {
      if (++i[d] < b.extent[d])
        break;
      i[d] = 0;
    }
  }
}

constexpr int64_t kMaxThreads = 64; // of parallel_for_each_point

// The same, the block's outermost rows split over the host's cores: the initial values and the
// checksum of a 2^30-point block took 16 s on one core. f(thread, local, global) is called
// from several threads; `thread` indexes per-thread state (fewer than the returned count).
template <class F>
unsigned parallel_for_each_point(const Block& b, const std::vector<int64_t>& global, F f) {
  const int64_t rows = b.extent.empty() ? 0 : b.extent[0];
  const unsigned threads = static_cast<unsigned>(std::clamp<int64_t>(
      std::min<int64_t>(rows, std::thread::hardware_concurrency()), 1, kMaxThreads));
  const int64_t row_points = rows == 0 ? 0 : b.points() / rows;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const int64_t first = rows * t / threads, last = rows * (t + 1) / threads;
      Block part = b;
      part.offset[0] += first;
      part.extent[0] = last - first;
      const int64_t base = first * row_points;
      for_each_point(part, global, [&](int64_t local, uint64_t g) { f(t, base + local, g); });
    });
  for (auto& worker : pool)
    worker.join();
  return threads;
}

} // namespace

double initial_value(uint64_t index, uint32_t seed, ScalarKind kind) {
  uint64_t h = mix(index ^ mix(seed));
  if (is_floating(kind))
    return static_cast<double>(h >> 11) * 0x1.0p-53 * 2.0 - 1.0;
  return static_cast<double>(h & 1);
}

struct DistributedSweep::Device {
  std::unique_ptr<runtime::Session> owned; // when the config gives no session
  runtime::Session& session;
  cl::CommandQueue transfers;
  runtime::RawBuffer extended, next, box, a, b;
  std::unique_ptr<StepKernel> kernel; // every box's
  std::unique_ptr<HaloExchange> exchange;
  explicit Device(runtime::Session& s) : session(s) {
    transfers = cl::CommandQueue(session.context(), session.device().device);
  }
  explicit Device(std::unique_ptr<runtime::Session> s) : owned(std::move(s)), session(*owned) {
    transfers = cl::CommandQueue(session.context(), session.device().device);
  }
};

DistributedSweep::DistributedSweep(Communicator world, SweepConfig config)
    : world_(std::move(world)), config_(std::move(config)) {
  const int dims = static_cast<int>(config_.global.size());
  if (dims < 1 || dims > 3)
    user_error(cat("a distributed sweep needs a grid of 1 to 3 dimensions, got ", dims));
  if (config_.steps < 1)
    user_error(cat("--steps must be at least 1, got ", config_.steps));
  std::vector<ArithExpr> extents(config_.global.begin(), config_.global.end());
  Expr step = config_.build(extents);
  Type in = input_types(step).at(0), out = infer_type(step);
  if (input_types(step).size() != 1 || in != out)
    user_error(cat("a distributed sweep repeats the step, so it needs one input and a result of "
                   "the input's type; got ",
                   input_types(step).size(), " input(s) and the result ", out.to_string()));
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

void DistributedSweep::start() {
  const double t0 = wall_seconds();
  report("opening the device");
  device_ = config_.session ? std::make_unique<Device>(*config_.session)
                            : std::make_unique<Device>(std::make_unique<runtime::Session>(
                                  device_for_rank(config_.device, world_.host_rank())));
  auto& dev = *device_;
  const std::size_t eb = element_bytes(element_);
  auto extended = block_.extended();
  int64_t points = 1;
  for (auto e : extended)
    points *= e;
  auto bytes = static_cast<std::size_t>(points) * eb;
  report(cat("allocating 5 device buffers of ", bytes, " bytes"));
  dev.extended = runtime::RawBuffer(dev.session, bytes);
  dev.next = runtime::RawBuffer(dev.session, bytes);
  dev.box = runtime::RawBuffer(dev.session, bytes);
  dev.a = runtime::RawBuffer(dev.session, bytes);
  dev.b = runtime::RawBuffer(dev.session, bytes);
  const int dims = static_cast<int>(extended.size());
  report("choosing and building the local step's kernel");
  Expr lowered = choose_lowering(local_step(config_.build, dims));
  if (!local_.empty())
    lowering_ += cat(", work-group ", extents_text(local_));
  dev.kernel =
      std::make_unique<StepKernel>(dev.session, lowered, cat(config_.name, "_local_step"), local_);
  std::vector<std::vector<int>> neighbours;
  for (int d = 0; d < dims; ++d)
    neighbours.push_back({cart_.neighbour(d, 0), cart_.neighbour(d, 1)});
  dev.exchange = std::make_unique<HaloExchange>(halo_faces(block_, grid_.halo(), neighbours), eb,
                                                FaceStaging::Packing::Transfer);
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
  setup_seconds_ = wall_seconds() - t0;
  report(cat("set up in ", setup_seconds_, " s"));
}

Expr DistributedSweep::choose_lowering(const Expr& step) {
  local_ = config_.local;
  if (config_.lower) {
    lowering_ = "the given lowering";
    return config_.lower(step);
  }
  auto best = best_local_variant(config_.tuning_database, device_->session.device().identity(),
                                 config_.name, block_.extended(), step);
  lowering_ = best.description;
  if (local_.empty())
    local_ = best.local;
  bool same = false;
  if (best.program) {
    try {
      same = same_as_plain(*best.program, step);
    } catch (const Error&) {
      if (local_ == config_.local)
        throw;
      // The explored work-group was measured on that variant with constant sizes; the local
      // step's kernel (symbolic sizes, the rank's drops) may not launch with it: automatic.
      local_ = config_.local;
      same = same_as_plain(*best.program, step);
    }
  }
  if (best.program && !same) {
    lowering_ = "plain lowering (the explored best variant differs from the plain step)";
    best.program.reset();
    local_ = config_.local;
  }
  return best.program ? *best.program : rewrite::lower_default(step);
}

bool DistributedSweep::same_as_plain(const Expr& chosen, const Expr& step) {
  auto& dev = *device_;
  const std::size_t eb = element_bytes(element_);
  const std::size_t bytes = static_cast<std::size_t>(block_.points()) * eb;
  const std::vector<unsigned char> host = initial_block();
  // The block alone, every side a global edge: one step of each lowering.
  Sides edges(block_.extent.size(), {false, false});
  std::vector<std::vector<unsigned char>> results;
  report("checking the explored variant against the plain step");
  for (const Expr& lowered : {chosen, rewrite::lower_default(step)}) {
    runtime::RawBuffer in(dev.session, bytes), a(dev.session, bytes), b(dev.session, bytes);
    in.write(host.data(), bytes);
    StepKernel kernel(dev.session, lowered, cat(config_.name, "_check"), local_);
    kernel.enqueue_steps(in.handle(), block_.extent, edges, 0, 1, a.handle(), b.handle());
    dev.session.finish();
    results.emplace_back(bytes);
    a.read(results.back().data(), bytes); // one step: the result is in a
  }
  for (int64_t i = 0; i < block_.points(); ++i) {
    double x = load(element_, results[0].data() + i * eb);
    double y = load(element_, results[1].data() + i * eb);
    if (!(std::abs(x - y) <= 1e-5 * std::max(1.0, std::abs(y))))
      return false;
  }
  return true;
}

double DistributedSweep::period(bool traced) {
  auto trace = [&](const char* what) {
    if (traced)
      report(what);
  };
  auto& dev = *device_;
  const std::size_t eb = element_bytes(element_);
  auto extended = block_.extended();
  auto& queue = dev.session.queue();
  auto compute = [&](const Box& box) {
    const cl::Buffer* input = &dev.extended.handle();
    if (box.in_extent != extended) {
      Rect from{extended, box.in_offset, box.in_extent};
      copy_rect(queue, dev.extended.handle(), from, dev.box.handle(), whole(box.in_extent), eb);
      input = &dev.box.handle();
    }
    auto& kernel = *dev.kernel;
    const cl::Buffer& result =
        kernel.enqueue_steps(*input, box.in_extent, box.internal, grid_.radius, grid_.steps,
                             dev.a.handle(), dev.b.handle());
    std::vector<int64_t> at(box.out_offset);
    for (std::size_t d = 0; d < at.size(); ++d)
      at[d] += block_.halo_lo[d];
    copy_rect(queue, result, whole(box.out_extent), dev.next.handle(),
              Rect{extended, at, box.out_extent}, eb);
  };
  std::size_t first = 0;
  // The interior needs no halo: it runs on the device while the halos travel. The box buffer
  // is reused by the shell, which waits for the interior on the in-order queue.
  if (boxes_.size() > 1) {
    trace("period: the interior box");
    compute(boxes_[0]);
    queue.flush();
    first = 1;
  }
  trace("period: the halo exchange");
  double e0 = wall_seconds();
  dev.exchange->run(cart_, dev.transfers, dev.extended.handle());
  double exchange = wall_seconds() - e0;
  trace("period: the shell boxes");
  for (std::size_t i = first; i < boxes_.size(); ++i)
    compute(boxes_[i]);
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
  int64_t launches_before = dev.kernel->launches();
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
  totals.launches = dev.kernel->launches() - launches_before;
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
