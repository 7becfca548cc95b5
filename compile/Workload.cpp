#include "compile/Workload.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <thread>

#include "compile/DeviceValues.h"
#include "compile/LaunchArguments.h"
#include "core/Error.h"
#include "core/RandomData.h"
#include "core/SizeBinding.h"
#include "primitives/TypeCheck.h"

namespace tessera::explore {

namespace {

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

} // namespace

std::size_t HostArray::element_bytes() const {
  return explore::element_bytes(kind);
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
    input_buffers_.push_back(upload(session, in.kind, in.values));
  }
}

std::vector<Data> Workload::input_data() const {
  std::vector<Data> data;
  for (const auto& in : inputs_)
    data.push_back(in.shape.empty() ? Data::scalar(ScalarValue::make(in.kind, in.values.at(0)))
                                    : Data::from_flat(in.kind, in.shape, in.values));
  return data;
}

void Workload::prepare_output(const codegen::KernelProgram& program) {
  if (program.input_types.size() != inputs_.size())
    user_error(cat("kernel ", program.kernels.at(0).name, " takes ", program.input_types.size(),
                   " input(s), the program has ", inputs_.size()));
  ScalarKind kind = program.output_type.innermost().scalar_kind();
  auto count = static_cast<std::size_t>(constant(
      program.output_type.scalar_count(), cat("the output size of ", program.kernels[0].name)));
  if (count != output_count_ || kind != output_kind_ || output_.bytes() == 0) {
    output_ = runtime::RawBuffer(*session_, std::max<std::size_t>(1, count * element_bytes(kind)));
    output_count_ = count;
    output_kind_ = kind;
  }
}

KernelRunner Workload::runner(const codegen::KernelProgram& program,
                              std::vector<runtime::Kernel> built) {
  prepare_output(program);
  KernelRunner runner(*session_, program, std::move(built));
  for (std::size_t i = 0; i < inputs_.size(); ++i) {
    const HostArray& in = inputs_[i];
    // Images made on first use, kept for every variant.
    auto image = [this, i] {
      auto made = input_images_.find(i);
      if (made == input_images_.end()) {
        const HostArray& array = inputs_[i];
        std::vector<float> host(array.values.begin(), array.values.end());
        made = input_images_.emplace(i, runtime::Image(*session_, array.shape, host)).first;
      }
      return made->second;
    };
    runner.bind_input(i,
                      in.shape.empty() ? scalar_argument(in.kind, in.values.at(0))
                                       : runtime::KernelArg(input_buffers_[i]),
                      in.kind, image);
  }
  runner.bind_output(runtime::KernelArg(output_));
  runner.bind_sizes({}, [](const codegen::Kernel& kernel, const std::string& name) {
    return cat("kernel ", kernel.name, " takes the size ", name,
               " as an argument: the explorer bakes every size (give numeric extents)");
  });
  return runner;
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

void Workload::launch_and_read(const codegen::KernelProgram& program,
                               std::vector<runtime::Kernel>& built) {
  KernelRunner run = runner(program, built);
  if (is_floating(output_kind_)) {
    if (output_kind_ == ScalarKind::F32) {
      float nan = std::numeric_limits<float>::quiet_NaN();
      output_.fill(&nan, sizeof nan);
    } else {
      double nan = std::numeric_limits<double>::quiet_NaN();
      output_.fill(&nan, sizeof nan);
    }
  }
  run.run();
  output_bytes_.resize(output_count_ * element_bytes(output_kind_));
  if (!output_bytes_.empty())
    output_.read(output_bytes_.data(), output_bytes_.size());
}

runtime::Timing Workload::time(const codegen::Kernel& kernel, runtime::Kernel& built,
                               runtime::TimingOptions options) {
  return runner(one_launch_program(kernel), {built}).time(options);
}

runtime::Timing Workload::time(const codegen::KernelProgram& program,
                               std::vector<runtime::Kernel>& built,
                               runtime::TimingOptions options) {
  return runner(program, built).time(options);
}

std::size_t Workload::bytes_moved(const codegen::Kernel& kernel) const {
  return bytes_moved(one_launch_program(kernel));
}

std::size_t Workload::bytes_moved(const codegen::KernelProgram& program) const {
  std::size_t bytes = 0;
  for (const auto& in : inputs_)
    bytes += in.values.size() * in.element_bytes();
  return bytes +
         output_cells(program) * element_bytes(program.output_type.innermost().scalar_kind());
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

double max_relative_difference(const std::vector<float>& result,
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
