#include "tessera/Run.h"

#include "core/Error.h"
#include "explore/Execute.h"

namespace tessera {

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
  std::vector<const std::vector<float>*> pointers;
  for (const auto& in : inputs)
    pointers.push_back(&in);
  auto run = explore::execute_flat(device, kernel, pointers, sizes, {1, repeats});
  return {std::move(run.output), run.timing.median_ms};
}

std::vector<float> run_variant(runtime::Session& device, const explore::VariantInfo& variant,
                               const std::vector<std::vector<float>>& inputs,
                               const std::map<std::string, int64_t>& sizes) {
  codegen::KernelProgram program = emit_program(variant);
  if (program.launches.size() == 1)
    return run_kernel(device, program.kernels[program.launches[0].kernel], inputs, sizes).output;
  // A program of kernels (every launch in order, intermediates in device buffers): the inputs
  // as Data of the program's input shapes, its size variables bound from `sizes`.
  if (inputs.size() != program.input_types.size())
    user_error(cat("the variant's program takes ", program.input_types.size(),
                   " input buffers, got ", inputs.size()));
  std::vector<Data> data;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Type& type = program.input_types[i];
    std::vector<int64_t> shape;
    int64_t count = 1;
    for (const auto& extent : type.shape()) {
      for (const auto& name : extent.variables())
        if (!sizes.count(name))
          user_error(cat("the variant's program needs the size ", name,
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
  auto output = explore::execute(device, program, data).output.flatten();
  return {output.begin(), output.end()};
}

Data run_kernel(runtime::Session& device, const codegen::Kernel& kernel,
                const std::vector<Data>& inputs) {
  return explore::execute(device, kernel, inputs).output;
}

} // namespace tessera
