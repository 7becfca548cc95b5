#include "multigrid/Program.h"

#include <algorithm>
#include <limits>
#include <set>

#include "codegen/SplitLaunch.h"
#include "compile/CpuWorkGroup.h"
#include "compile/DeviceValues.h"
#include "compile/KernelRunner.h"
#include "core/Error.h"
#include "runtime/ClError.h"
#include "runtime/KernelArg.h"
#include "runtime/Launch.h"
#include "runtime/Session.h"
#include "runtime/Timeline.h"

namespace tessera::multigrid {

using explore::element_bytes;

namespace {

// explore::cpu_work_group on `device`, within its budget for the work-items' private arrays.
runtime::Range cpu_group(const std::vector<std::size_t>& global, const runtime::Device& device,
                         int64_t private_bytes) {
  return explore::cpu_work_group(global, device.max_work_group_size, device.max_work_item_sizes,
                                 private_bytes, kCpuPrivateBytesPerGroup);
}

} // namespace

std::shared_ptr<CompiledKernel> compile(runtime::Session& session, codegen::Kernel code,
                                        std::vector<int64_t> local, std::string variant) {
  for (const auto& p : code.params)
    if (p.role == codegen::KernelParam::Size)
      user_error(cat("kernel ", code.name, " takes the size argument '", p.name,
                     "': multigrid kernels are generated with every size baked in"));
  auto k = std::make_shared<CompiledKernel>();
  std::vector<std::size_t> global, work_group;
  bool any_local = false;
  for (int d = 0; d < code.launch.dims; ++d) {
    auto g = code.launch.global[d].as_constant();
    if (!g)
      internal_error(cat("kernel ", code.name, " has a symbolic global size"));
    global.push_back(static_cast<std::size_t>(*g));
    int64_t l = d < static_cast<int>(local.size()) ? local[d] : code.launch.local[d];
    any_local |= l > 0;
    work_group.push_back(static_cast<std::size_t>(std::max<int64_t>(1, l)));
  }
  k->global = runtime::Range::of(global);
  if (any_local)
    k->local = runtime::Range::of(work_group);
  else if (session.device().type == "CPU") {
    k->local = cpu_group(global, session.device(), code.private_bytes);
    k->local_for_cpu = true;
  }
  k->session = &session;
  k->code = std::move(code);
  k->variant = std::move(variant);
  return k;
}

runtime::Kernel& CompiledKernel::built() {
  if (!built_) {
    if (!session)
      internal_error(cat("kernel ", code.name, " has no session to be built in"));
    built_ = session->build_kernel(code.source, code.name);
  }
  return *built_;
}

BufferId DeviceMemory::allocate(const std::string& name, ScalarKind kind, int64_t count) {
  if (count <= 0)
    internal_error(cat("buffer ", name, " of ", count, " elements"));
  std::size_t bytes = static_cast<std::size_t>(count) * element_bytes(kind);
  entries_.push_back({name, kind, count, runtime::RawBuffer(*session_, bytes)});
  return BufferId{static_cast<int>(entries_.size()) - 1};
}

const DeviceMemory::Entry& DeviceMemory::entry(BufferId id) const {
  if (id.index < 0 || id.index >= static_cast<int>(entries_.size()))
    internal_error(cat("no buffer number ", id.index));
  return entries_[static_cast<std::size_t>(id.index)];
}

const runtime::RawBuffer& DeviceMemory::buffer(BufferId id) const {
  return entry(id).buffer;
}
runtime::RawBuffer& DeviceMemory::buffer(BufferId id) {
  return const_cast<Entry&>(entry(id)).buffer;
}
ScalarKind DeviceMemory::kind(BufferId id) const {
  return entry(id).kind;
}
int64_t DeviceMemory::count(BufferId id) const {
  return entry(id).count;
}
const std::string& DeviceMemory::name(BufferId id) const {
  return entry(id).name;
}

std::size_t DeviceMemory::total_bytes() const {
  std::size_t total = 0;
  for (const auto& e : entries_)
    total += e.buffer.bytes();
  return total;
}

std::size_t DeviceMemory::largest_bytes() const {
  std::size_t largest = 0;
  for (const auto& e : entries_)
    largest = std::max(largest, e.buffer.bytes());
  return largest;
}

namespace {

// Per axis the largest divisor of size[a] up to wanted[a], the device's items along it and what
// remains of a work-group of 256 work-items (a size every kernel launches on NVIDIA's and AMD's
// GPUs) and of the device's largest.
runtime::Range divisor_group(const std::vector<std::size_t>& size,
                             const std::vector<std::size_t>& wanted,
                             std::size_t max_work_group_size,
                             const std::vector<std::size_t>& max_work_item_sizes) {
  std::size_t budget = std::min<std::size_t>(256, max_work_group_size);
  std::vector<std::size_t> local(size.size(), 1);
  for (std::size_t a = 0; a < size.size() && budget > 1; ++a) {
    std::size_t cap = std::min({budget, size[a], wanted.at(a)});
    if (a < max_work_item_sizes.size())
      cap = std::min(cap, max_work_item_sizes[a]);
    while (cap > 1 && size[a] % cap != 0)
      --cap;
    local[a] = std::max<std::size_t>(1, cap);
    budget /= local[a];
  }
  return runtime::Range::of(local);
}

} // namespace

runtime::Range narrow_part_group(const std::vector<std::size_t>& size,
                                 std::size_t max_work_group_size,
                                 const std::vector<std::size_t>& max_work_item_sizes) {
  return divisor_group(size, std::vector<std::size_t>(size.size(), 256), max_work_group_size,
                       max_work_item_sizes);
}

runtime::Range interior_rows_group(const std::vector<std::size_t>& size,
                                   std::size_t max_work_group_size,
                                   const std::vector<std::size_t>& max_work_item_sizes) {
  return divisor_group(size, {32, 4, 1}, max_work_group_size, max_work_item_sizes);
}

unsigned slab_inside(int dims, int range_axis) {
  unsigned inside = 0;
  for (int k = 0; k < dims - 1 - range_axis; ++k)
    inside |= 1u << k;
  return inside;
}

namespace {

// Whether an inside mask (bit k: the level's dimension k, outermost first) holds range axis `a`
// (OpenCL's x first).
bool inside_along_axis(unsigned inside, int dims, int a) {
  return (inside >> (dims - 1 - a) & 1u) != 0;
}

} // namespace

std::array<std::array<int64_t, 2>, 3> region_gaps(unsigned inside, const runtime::Range& global,
                                                  int64_t margin) {
  std::array<std::array<int64_t, 2>, 3> gaps{};
  const int dims = global.dims();
  for (int a = 0; a < dims; ++a)
    if (!inside_along_axis(inside, dims, a))
      gaps[static_cast<std::size_t>(a)] = {margin, static_cast<int64_t>(global[a]) - 2 * margin};
  return gaps;
}

void Schedule::launch(const std::string& label, std::shared_ptr<CompiledKernel> kernel,
                      std::vector<BufferId> inputs, BufferId output) {
  if (kernel && kernel->interior)
    launch_split(label, kernel, inputs, output);
  else
    add_launch(label, std::move(kernel), std::move(inputs), output);
}

namespace {

// Parts narrower than this along their first axis get narrow_part_group on a GPU.
constexpr std::size_t kNarrowPart = 32;

} // namespace

void Schedule::launch_around_interior(const std::string& label,
                                      std::shared_ptr<CompiledKernel> kernel,
                                      std::vector<BufferId> inputs, BufferId output) {
  if (!kernel || !kernel->interior)
    internal_error(cat("the ", label, " step launches around an interior it does not have"));
  launch_split(label, kernel, inputs, output, false);
}

void Schedule::launch_split(const std::string& label, const std::shared_ptr<CompiledKernel>& kernel,
                            const std::vector<BufferId>& inputs, BufferId output,
                            bool with_interior) {
  const runtime::Range& global = kernel->global;
  const auto margin = static_cast<std::size_t>(kernel->interior_margin);
  const int dims = global.dims();
  // On a CPU the interior fills its work-groups; the slabs run in rows (two shapes for the six).
  const runtime::Device& device = kernel->session->device();
  auto part = [&](std::shared_ptr<CompiledKernel> k, const std::vector<std::size_t>& from,
                  const std::vector<std::size_t>& size) {
    const int64_t private_bytes = k->code.private_bytes;
    const bool interior = k == kernel->interior;
    add_launch(label, std::move(k), inputs, output);
    Step& step = steps_.back();
    step.offset = runtime::Range::of(from);
    step.part = runtime::Range::of(size);
    if (device.type == "CPU")
      step.local = interior ? cpu_group(size, device, private_bytes)
                            : explore::cpu_part_group(size, margin, device.max_work_group_size,
                                                      device.max_work_item_sizes, private_bytes,
                                                      kCpuPrivateBytesPerGroup);
    else if (step.kernel->local.empty() && size[0] < kNarrowPart)
      step.local = narrow_part_group(size, device.max_work_group_size, device.max_work_item_sizes);
  };
  std::vector<std::size_t> from(static_cast<std::size_t>(dims)), size(from.size());
  for (int a = 0; a < dims; ++a) {
    from[a] = margin;
    size[a] = global[a] - 2 * margin;
  }
  if (with_interior) {
    if (kernel->interior->code.interior_rows) {
      // Guarded to the interior (a colour-strided kernel's work-item along x a pair of points):
      // the launch spans whole rows, its share of the points is the interior's.
      double interior_share = 1;
      for (int a = 0; a < dims; ++a)
        interior_share *= static_cast<double>(size[a]) / static_cast<double>(global[a]);
      std::vector<std::size_t> rows_from = from, rows = size;
      rows_from[0] = 0;
      rows[0] = *kernel->interior->code.launch.global[0].as_constant();
      part(kernel->interior, rows_from, rows);
      steps_.back().share = interior_share;
      if (device.type == "GPU" && kernel->interior->local.empty())
        steps_.back().local =
            interior_rows_group(rows, device.max_work_group_size, device.max_work_item_sizes);
    } else {
      part(kernel->interior, from, size);
    }
  }
  // The kernel of a part within the interior along the level's dimensions in `inside`.
  auto form_of = [&](unsigned inside) {
    const bool own = inside < kernel->slabs.size() && kernel->slabs[inside];
    return own ? kernel->slabs[inside] : kernel;
  };
  if (kernel->slab_regions) {
    // The parts of each inside mask in one launch: along its dimensions the interior, along the
    // others both ends of `margin` (the form's index gaps skip the interior there).
    for (unsigned inside = 0; inside + 1 < (1u << dims); ++inside) {
      const auto& form = form_of(inside);
      if (form->code.index_gaps != region_gaps(inside, global, static_cast<int64_t>(margin)))
        internal_error(cat("the ", label, " step's parts inside ", inside,
                           " have no kernel whose index gaps skip the interior"));
      for (int a = 0; a < dims; ++a) {
        const bool within = inside_along_axis(inside, dims, a);
        from[a] = within ? margin : 0;
        size[a] = within ? global[a] - 2 * margin : 2 * margin;
      }
      part(form, from, size);
    }
    return;
  }
  // Around it, per axis from the outermost, the two slabs of `margin` along it
  // (codegen::interior_and_slabs: the interior first, then two slabs an axis).
  std::vector<int64_t> range(global.data(), global.data() + dims);
  const auto parts = codegen::interior_and_slabs(range, static_cast<int64_t>(margin));
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const int a = dims - 1 - static_cast<int>((i - 1) / 2);
    part(form_of(slab_inside(dims, a)),
         std::vector<std::size_t>(parts[i].offset.begin(), parts[i].offset.end()),
         std::vector<std::size_t>(parts[i].extent.begin(), parts[i].extent.end()));
  }
}

void Schedule::add_launch(const std::string& label, std::shared_ptr<CompiledKernel> kernel,
                          std::vector<BufferId> inputs, BufferId output) {
  if (!kernel)
    internal_error(cat("the ", label, " step has no kernel"));
  std::size_t expected = 0;
  for (const auto& p : kernel->code.params)
    expected += p.role == codegen::KernelParam::Input;
  if (inputs.size() != expected)
    internal_error(cat("kernel ", kernel->code.name, " takes ", expected, " inputs, the ", label,
                       " step gives ", inputs.size()));
  // Only the input an in-place kernel names may be its output (the others are restrict).
  std::size_t next = 0;
  for (const auto& p : kernel->code.params)
    if (p.role == codegen::KernelParam::Input && inputs[next++] == output &&
        !(kernel->code.in_place && p.name == kernel->code.in_place_input))
      internal_error(cat("the ", label, " step reads and writes the same buffer"));
  checked_ = false;
  steps_.push_back({Step::Launch, label, std::move(kernel), std::move(inputs), output});
  exact_halos_.erase(output.index);
}

void Schedule::launch_part(const std::string& label, std::shared_ptr<CompiledKernel> kernel,
                           std::vector<BufferId> inputs, BufferId output, runtime::Range offset,
                           runtime::Range global) {
  if (!kernel || offset.dims() != kernel->global.dims() || global.dims() != offset.dims())
    internal_error(cat("the ", label, " step's part does not match its kernel's range"));
  const bool for_cpu = kernel->local_for_cpu;
  const int64_t private_bytes = kernel->code.private_bytes;
  const runtime::Device& device = kernel->session->device();
  add_launch(label, std::move(kernel), std::move(inputs), output);
  steps_.back().offset = offset;
  steps_.back().part = global;
  if (for_cpu) // one row along the first axis the part spans whole: the same for every part
    steps_.back().local = explore::cpu_part_group(
        std::vector<std::size_t>(global.data(), global.data() + global.dims()), 0,
        device.max_work_group_size, device.max_work_item_sizes, private_bytes,
        kCpuPrivateBytesPerGroup);
}

void Schedule::fill_zero(const std::string& label, BufferId buffer) {
  checked_ = false;
  steps_.push_back({Step::Fill, label, nullptr, {}, buffer});
  exact_halos_.erase(buffer.index);
}

void Schedule::copy(const std::string& label, BufferId from, BufferId to) {
  checked_ = false;
  steps_.push_back({Step::Copy, label, nullptr, {from}, to});
  set_exact_halo(to, exact_halo(from, 0), exact_halo(from, 1));
}

void Schedule::host(const std::string& label, std::function<void(DeviceMemory&)> work,
                    std::vector<BufferId> writes, bool ordered_by_queue) {
  checked_ = false;
  Step step{Step::Host, label, nullptr, {}, BufferId{}, std::move(work)};
  step.ordered_by_queue = ordered_by_queue;
  steps_.push_back(std::move(step));
  for (BufferId b : writes)
    exact_halos_.erase(b.index);
}

void Schedule::launch_over(const std::string& label, std::shared_ptr<CompiledKernel> kernel,
                           std::vector<BufferId> buffers, double bytes) {
  if (!kernel || kernel->code.params.size() != buffers.size())
    internal_error(cat("the ", label, " step's kernel takes another number of buffers"));
  for (BufferId b : buffers)
    exact_halos_.erase(b.index);
  Step step{Step::Over, label, std::move(kernel), std::move(buffers), BufferId{}, nullptr};
  step.bytes = bytes;
  checked_ = false;
  steps_.push_back(std::move(step));
}

void Schedule::push(const Step& step) {
  checked_ = false;
  steps_.push_back(step);
  if (step.kind == Step::Over)
    for (BufferId b : step.inputs)
      exact_halos_.erase(b.index);
  else if (step.kind != Step::Host)
    exact_halos_.erase(step.output.index);
}

void Schedule::append(const Schedule& other) {
  checked_ = false;
  steps_.insert(steps_.end(), other.steps_.begin(), other.steps_.end());
  exact_halos_ = other.exact_halos_;
}

int Schedule::exact_halo(BufferId b) const {
  return std::min(exact_halo(b, 0), exact_halo(b, 1));
}

int Schedule::exact_halo(BufferId b, int colour) const {
  auto found = exact_halos_.find(b.index);
  return found == exact_halos_.end() ? 0 : found->second.at(static_cast<std::size_t>(colour));
}

void Schedule::set_exact_halo(BufferId b, int depth) {
  set_exact_halo(b, depth, depth);
}

void Schedule::set_exact_halo(BufferId b, int colour0, int colour1) {
  if (colour0 > 0 || colour1 > 0)
    exact_halos_[b.index] = {std::max(colour0, 0), std::max(colour1, 0)};
  else
    exact_halos_.erase(b.index);
}

std::map<std::string, double> Schedule::bytes_by_label(const DeviceMemory& memory) const {
  std::map<std::string, double> bytes;
  for (const Step& s : steps_) {
    if (s.kind == Step::Host)
      continue;
    if (s.kind == Step::Over) {
      bytes[s.label] += s.bytes;
      continue;
    }
    double moved = static_cast<double>(memory.buffer(s.output).bytes());
    if (s.kernel)
      moved *= s.kernel->written_fraction;
    for (BufferId in : s.inputs)
      moved += static_cast<double>(memory.buffer(in).bytes());
    if (s.share > 0)
      moved *= s.share;
    else if (!s.part.empty()) // the share of the kernel's work-items it launches
      moved *= static_cast<double>(s.part.total()) / static_cast<double>(s.kernel->global.total());
    bytes[s.label] += moved;
  }
  return bytes;
}

namespace {

// The buffers as the kernel's arguments and its launch: checked the first time (the argument
// count, the launch sizes against the device and the kernel), then issued without asking the
// driver again.
// `offset`, `part`: a launch of part of the kernel's range (empty: the whole).
// `profiled`: an event for the launch (a checked one may go without).
cl::Event issue(runtime::Session& session, CompiledKernel& k, const DeviceMemory& memory,
                const std::vector<BufferId>& buffers, bool checked, bool profiled,
                const runtime::Range& offset = {}, const runtime::Range& part = {},
                const runtime::Range& own_local = {}) {
  const runtime::Range& global = part.empty() ? k.global : part;
  const runtime::Range& local = own_local.empty() ? k.local : own_local;
  runtime::Kernel& kernel = k.built();
  if (!checked) {
    std::vector<runtime::KernelArg> args;
    for (BufferId b : buffers)
      args.emplace_back(memory.buffer(b).handle());
    runtime::set_args(kernel, args);
    return runtime::enqueue(session, kernel, global, local, offset);
  }
  for (std::size_t i = 0; i < buffers.size(); ++i)
    runtime::check_cl(
        kernel.kernel.setArg(static_cast<cl_uint>(i), memory.buffer(buffers[i]).handle()),
        cat("setting argument ", i, " of kernel ", kernel.name));
  return runtime::enqueue_checked(session, kernel, global, local, offset, profiled);
}

// From the earliest start to the latest end of the events made (Profiling::Span).
double span_ms(const std::vector<cl::Event>& events) {
  uint64_t start = std::numeric_limits<uint64_t>::max(), end = 0;
  for (const auto& e : events)
    if (e()) {
      const runtime::EventTimes t = runtime::event_times(e);
      start = std::min(start, t.start);
      end = std::max(end, t.end);
    }
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

} // namespace

namespace {

// The steps' kernels not built yet (each once), with their interior versions.
std::vector<codegen::Kernel> unbuilt_kernels(const std::vector<Schedule::Step>& steps) {
  std::vector<codegen::Kernel> codes;
  std::set<const CompiledKernel*> seen;
  for (const auto& s : steps)
    for (const CompiledKernel* k : {s.kernel.get(), s.kernel ? s.kernel->interior.get() : nullptr})
      if (k && !k->is_built() && seen.insert(k).second)
        codes.push_back(k->code);
  return codes;
}

} // namespace

std::vector<cl::Event> Schedule::enqueue(DeviceMemory& memory, Profiling profiling) const {
  runtime::Session& session = memory.session();
  explore::build_together(session, unbuilt_kernels(steps_));
  std::vector<cl::Event> events(steps_.size());
  // Span: the first and the last step on the device are profiled (fills always are: their
  // event is how enqueue_fill reports its last piece).
  std::size_t first = steps_.size(), last = 0;
  for (std::size_t i = 0; i < steps_.size(); ++i)
    if (steps_[i].kind != Step::Host) {
      first = std::min(first, i);
      last = i;
    }
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    const Step& s = steps_[i];
    const bool profiled = profiling == Profiling::EveryStep || i == first || i == last;
    switch (s.kind) {
    case Step::Launch: {
      // Parameters in order: the inputs as listed, then the output.
      std::vector<BufferId> buffers;
      std::size_t next = 0;
      for (const auto& p : s.kernel->code.params)
        buffers.push_back(p.role == codegen::KernelParam::Output ? s.output : s.inputs[next++]);
      events[i] =
          issue(session, *s.kernel, memory, buffers, checked_, profiled, s.offset, s.part, s.local);
      break;
    }
    case Step::Over:
      events[i] = issue(session, *s.kernel, memory, s.inputs, checked_, profiled);
      break;
    case Step::Fill: {
      // A zero pattern of one element: the buffer's size is a multiple of it.
      const auto& b = memory.buffer(s.output);
      const uint64_t zero = 0;
      events[i] = runtime::enqueue_fill(session.queue(), b.handle(), b.bytes(), &zero,
                                        element_bytes(memory.kind(s.output)),
                                        cat(memory.name(s.output), " with zeros"));
      break;
    }
    case Step::Host:
      if (!s.ordered_by_queue)
        session.finish();
      if (runtime::Timeline::recording())
        runtime::Timeline::mark(session.queue(), "host: " + s.label);
      s.work(memory);
      break;
    case Step::Copy: {
      const auto& from = memory.buffer(s.inputs[0]);
      const auto& to = memory.buffer(s.output);
      if (from.bytes() != to.bytes())
        internal_error("copy between buffers of different sizes");
      runtime::check_cl(session.queue().enqueueCopyBuffer(from.handle(), to.handle(), 0, 0,
                                                          from.bytes(), nullptr,
                                                          profiled ? &events[i] : nullptr),
                        cat("copying ", memory.name(s.inputs[0]), " to ", memory.name(s.output)));
      break;
    }
    }
  }
  for (std::size_t i = 0; i < steps_.size(); ++i)
    runtime::Timeline::note(steps_[i].label, events[i]);
  checked_ = true;
  return events;
}

double Schedule::collect(const std::vector<cl::Event>& events, Breakdown* breakdown) const {
  if (events.size() != steps_.size())
    internal_error("the events of another schedule");
  bool every_step = true;
  for (std::size_t i = 0; i < steps_.size(); ++i)
    every_step &= steps_[i].kind == Step::Host || events[i]();
  if (!every_step)
    return span_ms(events);
  double total = 0;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    if (steps_[i].kind == Step::Host)
      continue;
    double ms = runtime::event_ms(events[i]);
    total += ms;
    if (breakdown) {
      auto& t = (*breakdown)[steps_[i].label];
      t.launches += 1;
      t.ms += ms;
    }
  }
  return total;
}

double Schedule::run(DeviceMemory& memory, Breakdown* breakdown) const {
  auto events = enqueue(memory);
  memory.session().finish();
  return collect(events, breakdown);
}

} // namespace tessera::multigrid
