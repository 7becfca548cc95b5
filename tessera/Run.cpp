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
  return run_kernel(device, emit_kernel(variant), inputs, sizes).output;
}

Data run_kernel(runtime::Session& device, const codegen::Kernel& kernel,
                const std::vector<Data>& inputs) {
  return explore::execute(device, kernel, inputs).output;
}

} // namespace tessera
