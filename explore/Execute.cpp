#include "explore/Execute.h"

#include <cmath>
#include <optional>

#include "core/Error.h"
#include "core/SizeBinding.h"
#include "explore/LaunchArguments.h"
#include "explore/Workload.h"
#include "explore/runtime/Buffer.h"
#include "explore/runtime/Launch.h"

namespace tessera::explore {

namespace {

using runtime::Buffer;
using runtime::KernelArg;

// Checks the data's shape against the type once the sizes are bound.
void check_shape(const Data& d, const Type& t, std::map<std::string, int64_t>& sizes,
                 const std::string& where) {
  if (t.is_scalar()) {
    if (!d.is_scalar())
      user_error(cat(where, ": expected a scalar of type ", t));
    return;
  }
  if (!t.is_array() || !d.is_array())
    user_error(cat(where, ": expected an array of type ", t, ", got ",
                   d.is_tuple() ? "a tuple" : "a scalar"));
  const ArithExpr& n = t.length();
  auto actual = static_cast<int64_t>(d.size());
  int64_t expected = 0;
  try {
    expected = n.evaluate(sizes);
  } catch (const Error&) {
    user_error(cat(where, ": cannot determine the length ", n.to_string(), " of ", t,
                   " from the inputs (got an array of ", actual, ")"));
  }
  if (expected != actual)
    user_error(cat(where, ": expected length ", n.to_string(), " = ", expected, ", got ", actual));
  if (actual > 0)
    check_shape(d[0], t.element(), sizes, where);
}

// Device buffers of every element kind, kept alive for the launch.
struct Buffers {
  std::vector<Buffer<float>> f32;
  std::vector<Buffer<double>> f64;
  std::vector<Buffer<int32_t>> i32;
  std::vector<Buffer<uint8_t>> u8;
};

template <class T> std::vector<T> convert(const std::vector<double>& v) {
  return std::vector<T>(v.begin(), v.end());
}

KernelArg upload(runtime::Session& s, Buffers& b, ScalarKind kind, const std::vector<double>& v) {
  switch (kind) {
  case ScalarKind::F32:
    return b.f32.emplace_back(s, convert<float>(v));
  case ScalarKind::F64:
    return b.f64.emplace_back(s, v);
  case ScalarKind::I32:
    return b.i32.emplace_back(s, convert<int32_t>(v));
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return b.u8.emplace_back(s, convert<uint8_t>(v));
  }
  internal_error("unknown scalar kind");
}

// A zero-filled device buffer of `count` elements (filled on the device: no host copy, so that a
// result too large for the device is refused before the host allocates anything).
KernelArg zeroed(runtime::Session& s, Buffers& b, ScalarKind kind, std::size_t count) {
  auto make = [&](auto& list) -> KernelArg {
    using T = typename std::decay_t<decltype(list)>::value_type::value_type;
    auto& buffer = list.emplace_back(s, count);
    buffer.fill(T{0});
    return buffer;
  };
  switch (kind) {
  case ScalarKind::F32:
    return make(b.f32);
  case ScalarKind::F64:
    return make(b.f64);
  case ScalarKind::I32:
    return make(b.i32);
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return make(b.u8);
  }
  internal_error("unknown scalar kind");
}

// Reads the most recently uploaded buffer of the given kind back as doubles.
std::vector<double> read_last(Buffers& b, ScalarKind kind) {
  auto widen = [](const auto& v) { return std::vector<double>(v.begin(), v.end()); };
  switch (kind) {
  case ScalarKind::F32:
    return widen(b.f32.back().read());
  case ScalarKind::F64:
    return b.f64.back().read();
  case ScalarKind::I32:
    return widen(b.i32.back().read());
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return widen(b.u8.back().read());
  }
  internal_error("unknown scalar kind");
}

} // namespace

Execution execute(runtime::Session& session, const codegen::Kernel& kernel,
                  const std::vector<Data>& inputs) {
  return execute(session, one_launch_program(kernel), inputs);
}

Execution execute(runtime::Session& session, const codegen::KernelProgram& program,
                  const std::vector<Data>& inputs) {
  Execution run;
  const std::string& name = program.kernels.at(0).name;
  if (program.input_types.size() != inputs.size())
    user_error(cat("kernel ", name, " takes ", program.input_types.size(), " input(s), got ",
                   inputs.size()));
  // Sizes from all inputs together (in any order), then the shapes and the deferred conditions.
  std::vector<SizeEquation> equations;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    collect_size_equations(inputs[i], program.input_types[i], equations);
  solve_sizes(equations, run.sizes);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    check_shape(inputs[i], program.input_types[i], run.sizes, cat("kernel ", name, " input ", i));
  check_assumptions(program.size_conditions, run.sizes, cat("kernel ", name));

  Buffers buffers;
  std::vector<KernelArg> input_args, intermediate_args;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto values = inputs[i].flatten();
    ScalarKind kind = program.input_types[i].innermost().scalar_kind();
    input_args.push_back(program.input_types[i].is_scalar()
                             ? scalar_argument(kind, values.at(0))
                             : upload(session, buffers, kind, values));
  }
  for (const auto& b : program.buffers)
    intermediate_args.push_back(
        zeroed(session, buffers, b.element,
               static_cast<std::size_t>(b.element_count.evaluate(run.sizes))));
  // The output buffer is the last one of its kind: read_last finds it.
  ScalarKind out_kind = program.output_type.innermost().scalar_kind();
  KernelArg output_arg =
      zeroed(session, buffers, out_kind,
             static_cast<std::size_t>(program.output_type.scalar_count().evaluate(run.sizes)));
  // Inputs placed as images (place-image), made on first use.
  std::map<std::size_t, KernelArg> images;
  ArgumentSource source;
  source.buffer = [&](const codegen::Kernel&, const codegen::KernelParam&,
                      const codegen::BufferRef& r) -> KernelArg {
    switch (r.kind) {
    case codegen::BufferRef::ProgramInput:
      return input_args.at(r.index);
    case codegen::BufferRef::Intermediate:
      return intermediate_args.at(r.index);
    case codegen::BufferRef::ProgramOutput:
      return output_arg;
    }
    internal_error("unknown buffer reference");
  };
  source.image = [&](const codegen::Kernel&, const codegen::KernelParam&,
                     std::size_t index) -> KernelArg {
    if (auto it = images.find(index); it != images.end())
      return it->second;
    auto values = inputs.at(index).flatten();
    std::vector<float> host(values.begin(), values.end());
    std::vector<int64_t> shape;
    for (const auto& n : program.input_types[index].shape())
      shape.push_back(n.evaluate(run.sizes));
    return images.emplace(index, KernelArg(runtime::Image(session, shape, host))).first->second;
  };
  source.size = [&](const codegen::Kernel& kernel, const std::string& size) {
    auto it = run.sizes.find(size);
    if (it == run.sizes.end())
      user_error(cat("kernel ", kernel.name, ": the size ", size,
                     " cannot be determined from the inputs"));
    return it->second;
  };

  std::vector<std::optional<runtime::Kernel>> built(program.kernels.size());
  for (const auto& launch : program.launches) {
    const codegen::Kernel& kernel = program.kernels.at(launch.kernel);
    std::vector<KernelArg> args = launch_arguments(program, launch, source);
    LaunchRange range = launch_range(kernel, run.sizes);
    auto& k = built[launch.kernel];
    if (!k)
      k = session.build_kernel(kernel.source, kernel.name);
    run.kernel_ms += runtime::run_timed(session, *k, args, range.global, range.local);
  }

  std::vector<double> host = read_last(buffers, out_kind);
  std::vector<int64_t> shape;
  for (const auto& n : program.output_type.shape())
    shape.push_back(n.evaluate(run.sizes));
  run.output = program.output_type.is_scalar()
                   ? Data::scalar(ScalarValue::make(out_kind, host.at(0)))
                   : Data::from_flat(out_kind, shape, host);
  return run;
}

FlatExecution execute_flat(runtime::Session& session, const codegen::Kernel& kernel,
                           const std::vector<const std::vector<float>*>& inputs,
                           const std::map<std::string, int64_t>& sizes,
                           runtime::TimingOptions timing) {
  check_assumptions(kernel.size_conditions, sizes, cat("kernel ", kernel.name));
  std::vector<Buffer<float>> buffers;
  buffers.reserve(kernel.params.size());
  std::size_t out_buffer = 0;
  // Input i of the kernel's inputs (f32, as many values as the parameter needs).
  auto host_input = [&](const codegen::Kernel& k, const codegen::KernelParam& p, std::size_t i) {
    if (p.element != ScalarKind::F32)
      user_error(cat("execute_flat runs f32 kernels; '", p.name, "' is ", to_string(p.element)));
    if (i >= inputs.size())
      user_error(cat("kernel ", k.name, " takes more inputs than the ", inputs.size(), " given"));
    auto expected = static_cast<std::size_t>(p.element_count.evaluate(sizes));
    if (inputs[i]->size() != expected)
      user_error(cat("input '", p.name, "' needs ", expected, " values, got ", inputs[i]->size()));
    return inputs[i];
  };
  ArgumentSource source;
  source.buffer = [&](const codegen::Kernel& k, const codegen::KernelParam& p,
                      const codegen::BufferRef& r) -> KernelArg {
    if (r.kind == codegen::BufferRef::ProgramInput)
      return buffers.emplace_back(session, *host_input(k, p, r.index));
    if (p.element != ScalarKind::F32)
      user_error(cat("execute_flat runs f32 kernels; '", p.name, "' is ", to_string(p.element)));
    out_buffer = buffers.size();
    return buffers.emplace_back(session, static_cast<std::size_t>(p.element_count.evaluate(sizes)));
  };
  source.image = [&](const codegen::Kernel& k, const codegen::KernelParam& p, std::size_t i) {
    const auto* host = host_input(k, p, i);
    std::vector<int64_t> shape;
    for (const auto& n : p.type.shape())
      shape.push_back(n.evaluate(sizes));
    return KernelArg(runtime::Image(session, shape, *host));
  };
  source.size = [&](const codegen::Kernel&, const std::string& name) { return sizes.at(name); };
  codegen::KernelProgram program = one_launch_program(kernel);
  auto args = launch_arguments(program, program.launches.at(0), source);
  LaunchRange range = launch_range(kernel, sizes);
  auto built = session.build_kernel(kernel.source, kernel.name);
  FlatExecution run;
  run.timing = runtime::time_kernel(session, built, args, range.global, range.local, timing);
  run.output = buffers[out_buffer].read();
  return run;
}

double max_relative_error(const Data& result, const Data& reference) {
  auto a = result.flatten(), b = reference.flatten();
  if (a.size() != b.size())
    user_error(cat("result has ", a.size(), " values, the reference ", b.size()));
  double worst = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (std::isnan(a[i]) != std::isnan(b[i]))
      return INFINITY;
    double err = std::fabs(a[i] - b[i]) / std::max(1.0, std::fabs(b[i]));
    worst = std::max(worst, err);
  }
  return worst;
}

} // namespace tessera::explore
