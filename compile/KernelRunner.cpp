#include "compile/KernelRunner.h"

#include <algorithm>
#include <atomic>
#include <set>
#include <thread>

#include "codegen/SharedSource.h"
#include "compile/CpuWorkGroup.h"
#include "compile/DeviceValues.h"
#include "compile/LaunchArguments.h"
#include "core/Error.h"
#include "runtime/BuildCache.h"
#include "runtime/DeviceTarget.h"
#include "runtime/Launch.h"

namespace tessera::explore {

int64_t constant(const ArithExpr& e, const std::string& what) {
  auto c = e.as_constant();
  if (!c)
    user_error(cat(what, " is ", e.to_string(),
                   ": the explorer needs constant sizes (give numeric extents)"));
  return *c;
}

namespace {

// The launch of `kernel` on its whole range, or on `part` of it (a split launch's, whose slabs
// are `thin` along one axis).
LaunchRange range_of(const codegen::Kernel& kernel, const std::map<std::string, int64_t>& sizes,
                     const Target* target, const codegen::KernelLaunch* part, std::size_t thin) {
  const bool on_part = part && !part->extent.empty();
  if (on_part && (part->extent.size() != static_cast<std::size_t>(kernel.launch.dims) ||
                  part->offset.size() != part->extent.size()))
    internal_error(cat("a launch of kernel ", kernel.name, " names a part of ", part->extent.size(),
                       " dimensions of a range of ", kernel.launch.dims));
  std::vector<std::size_t> global, local;
  bool any_local = false;
  for (int d = 0; d < kernel.launch.dims; ++d) {
    const ArithExpr& g = kernel.launch.global[d];
    if (on_part)
      global.push_back(static_cast<std::size_t>(part->extent[static_cast<std::size_t>(d)]));
    else
      global.push_back(
          static_cast<std::size_t>(sizes.empty() || g.as_constant()
                                       ? constant(g, cat("the global size of kernel ", kernel.name))
                                       : g.evaluate(sizes)));
    local.push_back(static_cast<std::size_t>(kernel.launch.local[d]));
    any_local |= kernel.launch.local[d] > 0;
  }
  LaunchRange range{runtime::Range::of(global), {}, {}};
  if (on_part)
    range.offset =
        runtime::Range::of(std::vector<std::size_t>(part->offset.begin(), part->offset.end()));
  if (any_local) {
    for (auto& l : local)
      l = l == 0 ? 1 : l;
    range.local = runtime::Range::of(local);
    return range;
  }
  if (!target)
    return range;
  const auto max_group = static_cast<std::size_t>(target->max_work_group_size);
  const std::vector<std::size_t> max_items(target->max_work_item_sizes.begin(),
                                           target->max_work_item_sizes.end());
  if (on_part && target->cpu())
    range.local = cpu_part_group(global, thin, max_group, max_items, kernel.private_bytes,
                                 target->max_private_bytes_per_group);
  else if (target->private_arrays_on_one_stack() && kernel.private_bytes > 0)
    range.local = cpu_work_group(global, max_group, max_items, kernel.private_bytes,
                                 target->max_private_bytes_per_group);
  return range;
}

} // namespace

LaunchRange launch_range(const codegen::Kernel& kernel, const std::map<std::string, int64_t>& sizes,
                         const Target* target) {
  return range_of(kernel, sizes, target, nullptr, 0);
}

LaunchRange launch_range(const codegen::KernelProgram& program, const codegen::KernelLaunch& launch,
                         const std::map<std::string, int64_t>& sizes, const Target* target) {
  return range_of(program.kernels.at(launch.kernel), sizes, target, &launch,
                  static_cast<std::size_t>(program.split_margin));
}

std::vector<runtime::Kernel> build_program(runtime::Session& session,
                                           const codegen::KernelProgram& program) {
  std::vector<runtime::Kernel> built;
  for (const auto& k : program.kernels)
    built.push_back(session.build_kernel(k.source, k.name));
  return built;
}

bool build_in_parallel(runtime::Session& session, const std::vector<codegen::Kernel>& kernels,
                       std::size_t threads) {
  threads = std::min(threads, kernels.size());
  if (threads < 2)
    return false;
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i = next++; i < kernels.size(); i = next++) {
      try {
        session.cache().build_program(kernels[i].source, "", nullptr, kernels[i].name);
      } catch (const std::exception&) {
        // Left to the kernel's own build, which reports it with its log.
      }
    }
  };
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t)
    helpers.emplace_back(work);
  work();
  for (auto& h : helpers)
    h.join();
  return true;
}

bool build_together(runtime::Session& session, const std::vector<codegen::Kernel>& all) {
  std::vector<codegen::Kernel> kernels;
  std::set<std::string> seen; // a kernel's source names its kernel: one copy of each
  for (const auto& k : all)   // those built already (an earlier solve's) are taken from memory
    if (seen.insert(k.source).second && !session.cache().in_memory(k.source))
      kernels.push_back(k);
  // PoCL compiles a kernel's code at its first launch and only parses and links the program in
  // its build; a driver that compiles every kernel of a program when building it (NVIDIA's)
  // would compile kernels that are never launched: each its own program, several at once.
  if (!session.device().is_pocl())
    return build_in_parallel(session, kernels, kParallelBuilds);
  if (kernels.size() < 2)
    return false;
  const codegen::SharedSources shared =
      codegen::shared_sources(kernels, codegen::KernelNames::Unique);
  std::vector<runtime::BuildCache::SharedMember> members;
  for (std::size_t i = 0; i < kernels.size(); ++i)
    members.push_back({kernels[i].source, {{kernels[i].name, shared.names[i]}}});
  return session.cache().build_shared(shared.text(), members);
}

KernelRunner::KernelRunner(runtime::Session& session, codegen::KernelProgram program)
    : KernelRunner(session, program, build_program(session, program)) {}

KernelRunner::KernelRunner(runtime::Session& session, codegen::KernelProgram program,
                           std::vector<runtime::Kernel> built)
    : session_(&session), target_(runtime::target_of(session.device())),
      program_(std::move(program)), built_(std::move(built)), inputs_(program_.input_types.size()) {
  if (built_.size() != program_.kernels.size())
    internal_error("a kernel runner needs every kernel of its program built");
}

void KernelRunner::bind_input(std::size_t index, runtime::KernelArg arg,
                              std::optional<ScalarKind> kind,
                              std::function<runtime::Image()> image) {
  if (index >= inputs_.size())
    user_error(cat("kernel ", program_.kernels.at(0).name, " takes ", inputs_.size(),
                   " input(s), got input ", index));
  inputs_[index] = {std::move(arg), kind, std::move(image), std::nullopt};
}

void KernelRunner::bind_output(runtime::KernelArg arg) {
  output_ = std::move(arg);
}

void KernelRunner::bind_sizes(std::map<std::string, int64_t> sizes, MissingSize missing) {
  sizes_ = std::move(sizes);
  missing_ = std::move(missing);
}

int64_t KernelRunner::size(const ArithExpr& e, const std::string& what) const {
  return sizes_.empty() || e.as_constant() ? constant(e, what) : e.evaluate(sizes_);
}

const runtime::RawBuffer& KernelRunner::intermediate(std::size_t index) {
  const auto& b = program_.buffers.at(index);
  auto bytes = static_cast<std::size_t>(size(b.element_count, "an intermediate buffer's size")) *
               element_bytes(b.element);
  bytes = std::max<std::size_t>(bytes, 1);
  if (intermediates_.size() <= index)
    intermediates_.resize(program_.buffers.size());
  auto& slot = intermediates_[index];
  if (!slot || slot->bytes() < bytes) {
    // Zero-filled on the device: what a kernel reads before another writes it is defined.
    slot = std::make_unique<runtime::RawBuffer>(*session_, bytes);
    unsigned char zero = 0;
    slot->fill(&zero, 1);
  }
  return *slot;
}

std::vector<std::vector<runtime::KernelArg>> KernelRunner::arguments() {
  // A program input bound with its kind must be of the kind the kernel reads.
  auto input = [&](const codegen::Kernel& kernel, const codegen::KernelParam& p,
                   std::size_t index) -> Input& {
    Input& in = inputs_.at(index);
    if (!in.arg)
      internal_error(cat("kernel ", kernel.name, ": program input ", index, " is not bound"));
    if (in.kind && p.element != *in.kind)
      user_error(cat("kernel ", kernel.name, " input '", p.name, "' is ", to_string(p.element),
                     ", the program's input ", index, " is ", to_string(*in.kind)));
    return in;
  };
  ArgumentSource source;
  source.buffer = [&](const codegen::Kernel& kernel, const codegen::KernelParam& p,
                      const codegen::BufferRef& r) -> runtime::KernelArg {
    switch (r.kind) {
    case codegen::BufferRef::ProgramInput:
      return *input(kernel, p, r.index).arg;
    case codegen::BufferRef::Intermediate:
      return runtime::KernelArg(intermediate(r.index));
    case codegen::BufferRef::ProgramOutput:
      if (!output_)
        internal_error(cat("kernel ", kernel.name, ": the output is not bound"));
      return *output_;
    }
    internal_error("unknown buffer reference");
  };
  source.image = [&](const codegen::Kernel& kernel, const codegen::KernelParam& p,
                     std::size_t index) -> runtime::KernelArg {
    Input& in = input(kernel, p, index);
    if (!in.make_image)
      user_error(
          cat("kernel ", kernel.name, " input '", p.name, "' is an image: this runner has none"));
    if (!in.image)
      in.image = runtime::KernelArg(in.make_image());
    return *in.image;
  };
  source.size = [&](const codegen::Kernel&, const std::string& name) { return sizes_.at(name); };
  // Every size argument bound before any buffer is sized with them.
  for (const auto& launch : program_.launches) {
    const codegen::Kernel& kernel = program_.kernels.at(launch.kernel);
    for (const auto& p : kernel.params)
      if (p.role == codegen::KernelParam::Size && !launch.arguments.count(p.name) &&
          !sizes_.count(p.name))
        user_error(missing_ ? missing_(kernel, p.name)
                            : cat("kernel ", kernel.name, ": the size ", p.name, " is not given"));
  }
  std::vector<std::vector<runtime::KernelArg>> args;
  for (const auto& launch : program_.launches)
    args.push_back(launch_arguments(program_, launch, source));
  return args;
}

void KernelRunner::enqueue() {
  auto args = arguments();
  for (std::size_t i = 0; i < program_.launches.size(); ++i) {
    const auto& launch = program_.launches[i];
    auto& built = built_.at(launch.kernel);
    runtime::set_args(built, args[i]);
    auto range = launch_range(program_, launch, sizes_, &target_);
    runtime::enqueue(*session_, built, range.global, range.local, range.offset);
  }
}

double KernelRunner::run() {
  return run_launches(arguments());
}

double KernelRunner::run_launches(const std::vector<std::vector<runtime::KernelArg>>& args) {
  double ms = 0;
  for (std::size_t i = 0; i < program_.launches.size(); ++i) {
    const auto& launch = program_.launches[i];
    auto range = launch_range(program_, launch, sizes_, &target_);
    ms += runtime::run_timed(*session_, built_.at(launch.kernel), args[i], range.global,
                             range.local, range.offset);
  }
  return ms;
}

runtime::Timing KernelRunner::time(runtime::TimingOptions options) {
  auto args = arguments();
  if (program_.launches.size() == 1 && program_.launches[0].extent.empty()) {
    // One launch: its arguments set once for every repetition.
    const auto& launch = program_.launches[0];
    auto range = launch_range(program_.kernels.at(launch.kernel), sizes_, &target_);
    return runtime::time_kernel(*session_, built_.at(launch.kernel), args[0], range.global,
                                range.local, options);
  }
  return runtime::time_repetitions([&] { return run_launches(args); }, options,
                                   cat("the program of ", program_.launches.size(), " launches"));
}

} // namespace tessera::explore
