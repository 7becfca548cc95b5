#include "explore/Workload.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <thread>

#include "core/Error.h"
#include "core/SizeBinding.h"
#include "core/TypeCheck.h"
#include "explore/runtime/Launch.h"

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

runtime::KernelArg scalar_arg(ScalarKind kind, double v) {
  switch (kind) {
  case ScalarKind::F32:
    return runtime::KernelArg(static_cast<float>(v));
  case ScalarKind::F64:
    return runtime::KernelArg(v);
  case ScalarKind::I32:
    return runtime::KernelArg(static_cast<int32_t>(v));
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return runtime::KernelArg(static_cast<uint8_t>(v));
  }
  internal_error("unknown scalar kind");
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
    // The same values as core/RandomData.cpp's random_value(type, seed * 7919 + k).
    std::mt19937 rng(seed * 7919 + k++);
    std::uniform_real_distribution<double> dist(-1.0, 1.0);
    a.values.resize(count);
    for (auto& v : a.values) {
      double x = dist(rng);
      switch (a.kind) {
      case ScalarKind::F32:
        v = static_cast<float>(x);
        break;
      case ScalarKind::F64:
        v = x;
        break;
      case ScalarKind::I32:
        v = std::floor(x * 100);
        break;
      case ScalarKind::U8:
        v = std::floor((x + 1) * 127);
        break;
      case ScalarKind::Bool:
        v = x > 0;
        break;
      }
    }
    inputs.push_back(std::move(a));
  }
  return inputs;
}

LaunchRange launch_range(const codegen::Kernel& kernel) {
  std::vector<std::size_t> global, local;
  bool any_local = false;
  for (int d = 0; d < kernel.launch.dims; ++d) {
    global.push_back(static_cast<std::size_t>(
        constant(kernel.launch.global[d], cat("the global size of kernel ", kernel.name))));
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

std::vector<runtime::KernelArg> Workload::arguments(const codegen::Kernel& kernel) {
  std::vector<runtime::KernelArg> args;
  std::size_t next = 0;
  for (const auto& p : kernel.params) {
    switch (p.role) {
    case codegen::KernelParam::Input: {
      if (next >= inputs_.size())
        user_error(
            cat("kernel ", kernel.name, " takes more inputs than the program's ", inputs_.size()));
      const HostArray& in = inputs_[next];
      if (p.element != in.kind)
        user_error(cat("kernel ", kernel.name, " input '", p.name, "' is ", to_string(p.element),
                       ", the program's input ", next, " is ", to_string(in.kind)));
      args.push_back(in.shape.empty() ? scalar_arg(in.kind, in.values.at(0))
                                      : runtime::KernelArg(input_buffers_[next]));
      ++next;
      break;
    }
    case codegen::KernelParam::Output: {
      auto count = static_cast<std::size_t>(
          constant(p.element_count, cat("the output size of kernel ", kernel.name)));
      if (count != output_count_ || p.element != output_kind_ || output_.bytes() == 0) {
        output_ =
            runtime::RawBuffer(*session_, std::max<std::size_t>(1, count * bytes_of(p.element)));
        output_count_ = count;
        output_kind_ = p.element;
      }
      args.push_back(runtime::KernelArg(output_));
      break;
    }
    case codegen::KernelParam::Size:
      user_error(cat("kernel ", kernel.name, " takes the size ", p.name,
                     " as an argument: the explorer bakes every size (give numeric extents)"));
    }
  }
  if (next != inputs_.size())
    user_error(cat("kernel ", kernel.name, " takes ", next, " input(s), the program has ",
                   inputs_.size()));
  return args;
}

std::vector<double> Workload::run(const codegen::Kernel& kernel, runtime::Kernel& built) {
  launch_and_read(kernel, built);
  return unpack(output_kind_, output_bytes_);
}

double Workload::run_and_compare(const codegen::Kernel& kernel, runtime::Kernel& built,
                                 const std::vector<double>& reference) {
  launch_and_read(kernel, built);
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

void Workload::launch_and_read(const codegen::Kernel& kernel, runtime::Kernel& built) {
  auto args = arguments(kernel);
  if (is_floating(output_kind_)) {
    if (output_kind_ == ScalarKind::F32) {
      float nan = std::numeric_limits<float>::quiet_NaN();
      output_.fill(&nan, sizeof nan);
    } else {
      double nan = std::numeric_limits<double>::quiet_NaN();
      output_.fill(&nan, sizeof nan);
    }
  }
  auto range = launch_range(kernel);
  runtime::run(*session_, built, args, range.global, range.local);
  output_bytes_.resize(output_count_ * bytes_of(output_kind_));
  if (!output_bytes_.empty())
    output_.read(output_bytes_.data(), output_bytes_.size());
}

runtime::Timing Workload::time(const codegen::Kernel& kernel, runtime::Kernel& built,
                               runtime::TimingOptions options) {
  auto args = arguments(kernel);
  auto range = launch_range(kernel);
  return runtime::time_kernel(*session_, built, args, range.global, range.local, options);
}

std::size_t Workload::bytes_moved(const codegen::Kernel& kernel) const {
  std::size_t bytes = 0;
  for (const auto& in : inputs_)
    bytes += in.values.size() * in.element_bytes();
  for (const auto& p : kernel.params)
    if (p.role == codegen::KernelParam::Output)
      bytes += static_cast<std::size_t>(constant(p.element_count, "the output size")) *
               bytes_of(p.element);
  return bytes;
}

std::size_t Workload::output_cells(const codegen::Kernel& kernel) const {
  std::size_t cells = 0;
  for (const auto& p : kernel.params)
    if (p.role == codegen::KernelParam::Output)
      cells += static_cast<std::size_t>(constant(p.element_count, "the output size"));
  return cells;
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
