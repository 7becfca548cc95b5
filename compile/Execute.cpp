#include "compile/Execute.h"

#include <algorithm>
#include <cmath>

#include "compile/Agreement.h"
#include "compile/DeviceValues.h"
#include "compile/KernelRunner.h"
#include "compile/LaunchArguments.h"
#include "core/Error.h"
#include "core/SizeBinding.h"

namespace tessera::explore {

namespace {

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

  // The shape of a type with the sizes bound.
  auto shape_of = [&](const Type& type) {
    std::vector<int64_t> shape;
    for (const auto& n : type.shape())
      shape.push_back(n.evaluate(run.sizes));
    return shape;
  };
  std::vector<runtime::RawBuffer> uploaded(inputs.size());
  std::vector<runtime::KernelArg> args;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    auto values = inputs[i].flatten();
    ScalarKind kind = program.input_types[i].innermost().scalar_kind();
    if (program.input_types[i].is_scalar()) {
      args.push_back(scalar_argument(kind, values.at(0)));
      continue;
    }
    uploaded[i] = upload(session, kind, values);
    args.push_back(runtime::KernelArg(uploaded[i]));
  }
  // A zero-filled output (filled on the device: no host copy, so that a result too large for
  // the device is refused before the host allocates anything).
  ScalarKind out_kind = program.output_type.innermost().scalar_kind();
  auto out_count = static_cast<std::size_t>(program.output_type.scalar_count().evaluate(run.sizes));
  runtime::RawBuffer output(session, std::max<std::size_t>(1, out_count * element_bytes(out_kind)));
  unsigned char zero = 0;
  output.fill(&zero, 1);

  KernelRunner runner(session, program);
  for (std::size_t i = 0; i < inputs.size(); ++i)
    runner.bind_input(i, args[i], std::nullopt, [&, i] {
      auto values = inputs[i].flatten();
      std::vector<float> host(values.begin(), values.end());
      return runtime::Image(session, shape_of(program.input_types[i]), host);
    });
  runner.bind_output(runtime::KernelArg(output));
  runner.bind_sizes(run.sizes, [](const codegen::Kernel& kernel, const std::string& size) {
    return cat("kernel ", kernel.name, ": the size ", size,
               " cannot be determined from the inputs");
  });
  run.kernel_ms = runner.run();

  std::vector<double> host = download(output, out_kind, out_count);
  run.output = program.output_type.is_scalar()
                   ? Data::scalar(ScalarValue::make(out_kind, host.at(0)))
                   : Data::from_flat(out_kind, shape_of(program.output_type), host);
  return run;
}

FlatExecution execute_flat(runtime::Session& session, const codegen::Kernel& kernel,
                           const std::vector<const std::vector<float>*>& inputs,
                           const std::map<std::string, int64_t>& sizes,
                           runtime::TimingOptions timing) {
  check_assumptions(kernel.size_conditions, sizes, cat("kernel ", kernel.name));
  auto f32_only = [](const codegen::KernelParam& p) {
    if (p.element != ScalarKind::F32)
      user_error(cat("execute_flat runs f32 kernels; '", p.name, "' is ", to_string(p.element)));
  };
  auto count = [&](const codegen::KernelParam& p) {
    return static_cast<std::size_t>(p.element_count.evaluate(sizes));
  };
  // The kernel's parameters in order: input i is the i-th input parameter (one_launch_program).
  std::vector<runtime::RawBuffer> uploaded;
  std::vector<const codegen::KernelParam*> input_params;
  runtime::RawBuffer output;
  std::size_t out_count = 0;
  for (const auto& p : kernel.params) {
    if (p.role == codegen::KernelParam::Output) {
      f32_only(p);
      out_count = count(p);
      output = runtime::RawBuffer(session, std::max<std::size_t>(1, out_count * sizeof(float)));
    }
    if (p.role != codegen::KernelParam::Input)
      continue;
    f32_only(p);
    std::size_t i = input_params.size();
    if (i >= inputs.size())
      user_error(
          cat("kernel ", kernel.name, " takes more inputs than the ", inputs.size(), " given"));
    if (inputs[i]->size() != count(p))
      user_error(cat("input '", p.name, "' needs ", count(p), " values, got ", inputs[i]->size()));
    input_params.push_back(&p);
    // An image input is made from the host array by the runner; a buffer is uploaded.
    uploaded.emplace_back();
    if (!is_image(p.space))
      uploaded.back() =
          runtime::RawBuffer(session, std::max<std::size_t>(1, count(p) * sizeof(float)),
                             count(p) ? inputs[i]->data() : nullptr, CL_MEM_READ_ONLY);
  }
  KernelRunner runner(session, one_launch_program(kernel));
  for (std::size_t i = 0; i < input_params.size(); ++i)
    runner.bind_input(i, runtime::KernelArg(uploaded[i]), std::nullopt, [&, i] {
      std::vector<int64_t> shape;
      for (const auto& n : input_params[i]->type.shape())
        shape.push_back(n.evaluate(sizes));
      return runtime::Image(session, shape, *inputs[i]);
    });
  runner.bind_output(runtime::KernelArg(output));
  runner.bind_sizes(sizes, {});
  FlatExecution run;
  run.timing = runner.time(timing);
  run.output.resize(out_count);
  if (out_count > 0)
    output.read(run.output.data(), out_count * sizeof(float));
  return run;
}

double max_relative_error(const Data& result, const Data& reference) {
  auto a = result.flatten(), b = reference.flatten();
  if (a.size() != b.size())
    user_error(cat("result has ", a.size(), " values, the reference ", b.size()));
  return max_relative_difference(a, b);
}

} // namespace tessera::explore
