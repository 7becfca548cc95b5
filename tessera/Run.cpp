#include "tessera/Run.h"

#include <algorithm>

#include "compile/Execute.h"
#include "core/Error.h"

namespace tessera {

namespace {

// The flat float buffers run f32 kernels; other element types go through Data.
void check_f32(const codegen::Kernel& kernel) {
  for (const auto& p : kernel.params)
    if (p.role != codegen::KernelParam::Size && p.element != ScalarKind::F32)
      user_error(cat("run_kernel on std::vector<float> buffers runs f32 kernels; kernel ",
                     kernel.name, "'s argument '", p.name, "' is ", to_string(p.element),
                     ": pass the inputs as Data (run_kernel(device, kernel or program, "
                     "std::vector<Data>) in tessera/Run.h)"));
}

// The flat inputs as Data of the program's input shapes, its size variables from `sizes`.
std::vector<Data> program_inputs(const codegen::KernelProgram& program,
                                 const std::vector<std::vector<float>>& inputs,
                                 const std::map<std::string, int64_t>& sizes) {
  if (inputs.size() != program.input_types.size())
    user_error(cat("the program of kernels takes ", program.input_types.size(),
                   " input buffers, got ", inputs.size()));
  std::vector<Data> data;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Type& type = program.input_types[i];
    std::vector<int64_t> shape;
    int64_t count = 1;
    for (const auto& extent : type.shape()) {
      for (const auto& name : extent.variables())
        if (!sizes.count(name))
          user_error(cat("the program of kernels needs the size ", name,
                         ": give it in `sizes` (or use constant sizes)"));
      shape.push_back(extent.evaluate(sizes));
      count *= shape.back();
    }
    if (static_cast<int64_t>(inputs[i].size()) != count)
      user_error(cat("input ", i, " of type ", type.to_string(), " needs ", count, " values, got ",
                     inputs[i].size()));
    data.push_back(Data::from_flat(type.innermost().scalar_kind(), shape,
                                   std::vector<double>(inputs[i].begin(), inputs[i].end())));
  }
  return data;
}

} // namespace

RunResult run_kernel(runtime::Session& device, const codegen::Kernel& kernel,
                     const std::vector<std::vector<float>>& inputs,
                     const std::map<std::string, int64_t>& sizes, int repeats) {
  std::size_t wanted = 0;
  for (const auto& p : kernel.params) {
    wanted += p.role == codegen::KernelParam::Input;
    if (p.role == codegen::KernelParam::Size && !sizes.count(p.name))
      user_error(cat("kernel ", kernel.name, " needs the size ", p.name,
                     ": give it in `sizes` (or generate the kernel with constant sizes)"));
  }
  if (inputs.size() != wanted)
    user_error(
        cat("kernel ", kernel.name, " takes ", wanted, " input buffers, got ", inputs.size()));
  if (repeats < 1)
    user_error(cat("repeats must be at least 1, got ", repeats));
  check_f32(kernel);
  std::vector<const std::vector<float>*> pointers;
  for (const auto& in : inputs)
    pointers.push_back(&in);
  auto run = explore::execute_flat(device, kernel, pointers, sizes, {1, repeats});
  return {std::move(run.output), run.timing.median_ms};
}

RunResult run_kernel(runtime::Session& device, const codegen::KernelProgram& program,
                     const std::vector<std::vector<float>>& inputs,
                     const std::map<std::string, int64_t>& sizes, int repeats) {
  if (is_one_kernel(program))
    return run_kernel(device, program.kernels[program.launches[0].kernel], inputs, sizes, repeats);
  if (repeats < 1)
    user_error(cat("repeats must be at least 1, got ", repeats));
  for (const auto& k : program.kernels)
    check_f32(k);
  std::vector<Data> data = program_inputs(program, inputs, sizes);
  std::vector<double> times;
  Data output;
  for (int r = 0; r < repeats; ++r) {
    auto run = explore::execute(device, program, data);
    times.push_back(run.kernel_ms);
    output = std::move(run.output);
  }
  std::sort(times.begin(), times.end());
  auto flat = output.flatten();
  return {std::vector<float>(flat.begin(), flat.end()), times[times.size() / 2]};
}

std::vector<float> run_variant(runtime::Session& device, const explore::VariantInfo& variant,
                               const std::vector<std::vector<float>>& inputs,
                               const std::map<std::string, int64_t>& sizes) {
  return run_kernel(device, emit_program(variant), inputs, sizes).output;
}

Data run_kernel(runtime::Session& device, const codegen::Kernel& kernel,
                const std::vector<Data>& inputs) {
  return explore::execute(device, kernel, inputs).output;
}

Data run_kernel(runtime::Session& device, const codegen::KernelProgram& program,
                const std::vector<Data>& inputs) {
  return explore::execute(device, program, inputs).output;
}

} // namespace tessera
