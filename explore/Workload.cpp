#include "explore/Workload.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>

#include "core/Error.h"
#include "core/RandomData.h"
#include "core/SizeBinding.h"
#include "explore/LaunchArguments.h"
#include "explore/runtime/Launch.h"
#include "primitives/TypeCheck.h"

namespace tessera::explore {

namespace {

std::size_t bytes_of(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F32:
  case ScalarKind::I32:
    return 4;
  case ScalarKind::F64:
    return 8;
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return 1;
  }
  internal_error("unknown scalar kind");
}

int64_t constant(const ArithExpr& e, const std::string& what) {
  auto c = e.as_constant();
  if (!c)
    user_error(cat(what, " is ", e.to_string(),
                   ": the explorer needs constant sizes (give numeric extents)"));
  return *c;
}

// Host values converted to the device representation of kind.
std::vector<unsigned char> pack(ScalarKind kind, const std::vector<double>& values) {
  std::vector<unsigned char> bytes(values.size() * bytes_of(kind));
  auto put = [&]<class T>(T) {
    T* out = reinterpret_cast<T*>(bytes.data());
    for (std::size_t i = 0; i < values.size(); ++i)
      out[i] = static_cast<T>(values[i]);
  };
  switch (kind) {
  case ScalarKind::F32:
    put(float{});
    break;
  case ScalarKind::F64:
    put(double{});
    break;
  case ScalarKind::I32:
    put(int32_t{});
    break;
  case ScalarKind::U8:
  case ScalarKind::Bool:
    put(uint8_t{});
    break;
  }
  return bytes;
}

// max_relative_difference over result[0 .. reference.size()).
template <class T> double max_difference(const T* result, const std::vector<double>& reference) {
  // Over chunks on several threads for large grids (the explorer checks every variant).
  auto chunk = [&](std::size_t begin, std::size_t end) {
    double worst = 0;
    for (std::size_t i = begin; i < end; ++i) {
      double a = static_cast<double>(result[i]), b = reference[i];
      if (std::isnan(a) || std::isnan(b)) {
        if (std::isnan(a) != std::isnan(b))
          return double(INFINITY);
        continue;
      }
      worst = std::max(worst, std::fabs(a - b) / std::max(1.0, std::fabs(b)));
    }
    return worst;
  };
  const std::size_t n = reference.size(), per_thread = std::size_t{1} << 22;
  std::size_t threads = std::min<std::size_t>(
      {std::max(1u, std::thread::hardware_concurrency()), 8, (n + per_thread - 1) / per_thread});
  if (threads <= 1)
    return chunk(0, n);
  std::vector<double> worst(threads, 0);
  std::vector<std::thread> helpers;
  for (std::size_t t = 0; t < threads; ++t)
    helpers.emplace_back([&, t] { worst[t] = chunk(n * t / threads, n * (t + 1) / threads); });
  for (auto& h : helpers)
    h.join();
  return *std::max_element(worst.begin(), worst.end());
}

std::vector<double> unpack(ScalarKind kind, const std::vector<unsigned char>& bytes) {
  std::size_t n = bytes.size() / bytes_of(kind);
  std::vector<double> values(n);
  auto get = [&]<class T>(T) {
    const T* in = reinterpret_cast<const T*>(bytes.data());
    for (std::size_t i = 0; i < n; ++i)
      values[i] = static_cast<double>(in[i]);
  };
  switch (kind) {
  case ScalarKind::F32:
    get(float{});
    break;
  case ScalarKind::F64:
    get(double{});
    break;
  case ScalarKind::I32:
    get(int32_t{});
    break;
  case ScalarKind::U8:
  case ScalarKind::Bool:
    get(uint8_t{});
    break;
  }
  return values;
}

} // namespace

std::size_t HostArray::element_bytes() const {
  return bytes_of(kind);
}

std::vector<HostArray> random_host_inputs(const Expr& program, uint32_t seed) {
  std::vector<HostArray> inputs;
  uint32_t k = 0;
  for (const auto& type : input_types(program)) {
    HostArray a;
    a.type = type;
    if (!type.innermost().is_scalar())
      user_error(cat("the explorer supports inputs that are arrays of scalars, got ", type));
    a.kind = type.innermost().scalar_kind();
    std::size_t count = 1;
    for (const auto& n : type.shape()) {
      a.shape.push_back(constant(n, cat("an extent of input type ", type)));
      count *= static_cast<std::size_t>(a.shape.back());
    }
    a.values = random_scalars(a.kind, count, input_seed(seed, k++));
    inputs.push_back(std::move(a));
  }
  return inputs;
}

LaunchRange launch_range(const codegen::Kernel& kernel,
                         const std::map<std::string, int64_t>& sizes) {
  std::vector<std::size_t> global, local;
  bool any_local = false;
  for (int d = 0; d < kernel.launch.dims; ++d) {
    const ArithExpr& g = kernel.launch.global[d];
    global.push_back(
        static_cast<std::size_t>(sizes.empty() || g.as_constant()
                                     ? constant(g, cat("the global size of kernel ", kernel.name))
                                     : g.evaluate(sizes)));
    local.push_back(static_cast<std::size_t>(kernel.launch.local[d]));
    any_local |= kernel.launch.local[d] > 0;
  }
  if (any_local)
    for (auto& l : local)
      l = l == 0 ? 1 : l;
  else
    local.clear();
  return {runtime::Range::of(global), runtime::Range::of(local)};
}

Workload::Workload(runtime::Session& session, const Expr& program, uint32_t seed)
    : session_(&session), inputs_(random_host_inputs(program, seed)) {
  // With its sizes bound, every condition the type checker deferred is decided: a program whose
  // windows or tiles do not fit these sizes is refused here, before any variant runs.
  TypeChecker checker;
  checker.apply(program, input_types(program));
  check_assumptions(checker.assumptions(), {});
  for (const auto& in : inputs_) {
    if (in.shape.empty()) {
      input_buffers_.emplace_back();
      continue;
    }
    auto bytes = pack(in.kind, in.values);
    input_buffers_.emplace_back(session, bytes.size(), bytes.data(), CL_MEM_READ_ONLY);
  }
}

std::vector<Data> Workload::input_data() const {
  std::vector<Data> data;
  for (const auto& in : inputs_)
    data.push_back(in.shape.empty() ? Data::scalar(ScalarValue::make(in.kind, in.values.at(0)))
                                    : Data::from_flat(in.kind, in.shape, in.values));
  return data;
}

std::vector<runtime::Kernel> build_program(runtime::Session& session,
                                           const codegen::KernelProgram& program) {
  std::vector<runtime::Kernel> built;
  for (const auto& k : program.kernels)
    built.push_back(session.build_kernel(k.source, k.name));
  return built;
}

void Workload::prepare(const codegen::KernelProgram& program) {
  if (program.input_types.size() != inputs_.size())
    user_error(cat("kernel ", program.kernels.at(0).name, " takes ", program.input_types.size(),
                   " input(s), the program has ", inputs_.size()));
  ScalarKind kind = program.output_type.innermost().scalar_kind();
  auto count = static_cast<std::size_t>(constant(
      program.output_type.scalar_count(), cat("the output size of ", program.kernels[0].name)));
  if (count != output_count_ || kind != output_kind_ || output_.bytes() == 0) {
    output_ = runtime::RawBuffer(*session_, std::max<std::size_t>(1, count * bytes_of(kind)));
    output_count_ = count;
    output_kind_ = kind;
  }
  intermediates_.clear();
  for (const auto& b : program.buffers) {
    auto n = static_cast<std::size_t>(constant(b.element_count, "an intermediate buffer's size"));
    intermediates_.emplace_back(*session_, std::max<std::size_t>(1, n * bytes_of(b.element)));
  }
}

std::vector<runtime::KernelArg> Workload::arguments(const codegen::KernelProgram& program,
                                                    const codegen::KernelLaunch& launch) {
  // A program input must be of the element kind the kernel reads.
  auto input = [&](const codegen::Kernel& kernel, const codegen::KernelParam& p,
                   std::size_t index) -> const HostArray& {
    const HostArray& in = inputs_.at(index);
    if (p.element != in.kind)
      user_error(cat("kernel ", kernel.name, " input '", p.name, "' is ", to_string(p.element),
                     ", the program's input ", index, " is ", to_string(in.kind)));
    return in;
  };
  ArgumentSource source;
  source.buffer = [&](const codegen::Kernel& kernel, const codegen::KernelParam& p,
                      const codegen::BufferRef& r) -> runtime::KernelArg {
    switch (r.kind) {
    case codegen::BufferRef::ProgramInput: {
      const HostArray& in = input(kernel, p, r.index);
      return in.shape.empty() ? scalar_argument(in.kind, in.values.at(0))
                              : runtime::KernelArg(input_buffers_[r.index]);
    }
    case codegen::BufferRef::Intermediate:
      return runtime::KernelArg(intermediates_.at(r.index));
    case codegen::BufferRef::ProgramOutput:
      return runtime::KernelArg(output_);
    }
    internal_error("unknown buffer reference");
  };
  source.image = [&](const codegen::Kernel& kernel, const codegen::KernelParam& p,
                     std::size_t index) {
    const HostArray& in = input(kernel, p, index);
    auto image = input_images_.find(index);
    if (image == input_images_.end()) {
      std::vector<float> host(in.values.begin(), in.values.end());
      image = input_images_.emplace(index, runtime::Image(*session_, in.shape, host)).first;
    }
    return runtime::KernelArg(image->second);
  };
  source.size = [](const codegen::Kernel& kernel, const std::string& name) -> int64_t {
    user_error(cat("kernel ", kernel.name, " takes the size ", name,
                   " as an argument: the explorer bakes every size (give numeric extents)"));
  };
  return launch_arguments(program, launch, source);
}

std::vector<double> Workload::run(const codegen::Kernel& kernel, runtime::Kernel& built) {
  std::vector<runtime::Kernel> one{built};
  return run(one_launch_program(kernel), one);
}

std::vector<double> Workload::run(const codegen::KernelProgram& program,
                                  std::vector<runtime::Kernel>& built) {
  launch_and_read(program, built);
  return unpack(output_kind_, output_bytes_);
}

double Workload::run_and_compare(const codegen::Kernel& kernel, runtime::Kernel& built,
                                 const std::vector<double>& reference) {
  std::vector<runtime::Kernel> one{built};
  return run_and_compare(one_launch_program(kernel), one, reference);
}

double Workload::run_and_compare(const codegen::KernelProgram& program,
                                 std::vector<runtime::Kernel>& built,
                                 const std::vector<double>& reference) {
  launch_and_read(program, built);
  if (reference.size() != output_count_)
    return INFINITY;
  switch (output_kind_) {
  case ScalarKind::F32:
    return max_difference(reinterpret_cast<const float*>(output_bytes_.data()), reference);
  case ScalarKind::F64:
    return max_difference(reinterpret_cast<const double*>(output_bytes_.data()), reference);
  case ScalarKind::I32:
    return max_difference(reinterpret_cast<const int32_t*>(output_bytes_.data()), reference);
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return max_difference(output_bytes_.data(), reference);
  }
  internal_error("unknown scalar kind");
}

double Workload::launch_all(const codegen::KernelProgram& program,
                            std::vector<runtime::Kernel>& built) {
  double ms = 0;
  for (const auto& launch : program.launches) {
    auto args = arguments(program, launch);
    auto range = launch_range(program.kernels.at(launch.kernel));
    ms += runtime::run_timed(*session_, built.at(launch.kernel), args, range.global, range.local);
  }
  return ms;
}

void Workload::launch_and_read(const codegen::KernelProgram& program,
                               std::vector<runtime::Kernel>& built) {
  prepare(program);
  if (is_floating(output_kind_)) {
    if (output_kind_ == ScalarKind::F32) {
      float nan = std::numeric_limits<float>::quiet_NaN();
      output_.fill(&nan, sizeof nan);
    } else {
      double nan = std::numeric_limits<double>::quiet_NaN();
      output_.fill(&nan, sizeof nan);
    }
  }
  launch_all(program, built);
  output_bytes_.resize(output_count_ * bytes_of(output_kind_));
  if (!output_bytes_.empty())
    output_.read(output_bytes_.data(), output_bytes_.size());
}

runtime::Timing Workload::time(const codegen::Kernel& kernel, runtime::Kernel& built,
                               runtime::TimingOptions options) {
  codegen::KernelProgram program = one_launch_program(kernel);
  prepare(program);
  auto args = arguments(program, program.launches[0]);
  auto range = launch_range(kernel);
  return runtime::time_kernel(*session_, built, args, range.global, range.local, options);
}

runtime::Timing Workload::time(const codegen::KernelProgram& program,
                               std::vector<runtime::Kernel>& built,
                               runtime::TimingOptions options) {
  if (program.launches.size() == 1)
    return time(program.kernels[0], built.at(0), options);
  // A program: the launches' profiled times summed per repetition.
  prepare(program);
  for (int i = 0; i < options.warmup; ++i)
    launch_all(program, built);
  runtime::Timing t;
  for (int i = 0; i < std::max(1, options.repeats); ++i)
    t.samples_ms.push_back(launch_all(program, built));
  t.median_ms = runtime::median(t.samples_ms);
  t.min_ms = *std::min_element(t.samples_ms.begin(), t.samples_ms.end());
  t.max_ms = *std::max_element(t.samples_ms.begin(), t.samples_ms.end());
  return t;
}

std::size_t Workload::bytes_moved(const codegen::Kernel& kernel) const {
  return bytes_moved(one_launch_program(kernel));
}

std::size_t Workload::bytes_moved(const codegen::KernelProgram& program) const {
  std::size_t bytes = 0;
  for (const auto& in : inputs_)
    bytes += in.values.size() * in.element_bytes();
  return bytes + output_cells(program) * bytes_of(program.output_type.innermost().scalar_kind());
}

std::size_t Workload::output_cells(const codegen::Kernel& kernel) const {
  return output_cells(one_launch_program(kernel));
}

std::size_t Workload::output_cells(const codegen::KernelProgram& program) const {
  return static_cast<std::size_t>(constant(program.output_type.scalar_count(), "the output size"));
}

double max_relative_difference(const std::vector<double>& result,
                               const std::vector<double>& reference) {
  if (result.size() != reference.size())
    return INFINITY;
  return max_difference(result.data(), reference);
}

bool has_nonzero(const std::vector<double>& values) {
  for (double v : values)
    if (v != 0 && !std::isnan(v))
      return true;
  return false;
}

} // namespace tessera::explore
