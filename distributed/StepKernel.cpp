#include "distributed/StepKernel.h"

#include "core/Error.h"

namespace tessera::distributed {

StepKernel::StepKernel(runtime::Session& session, const Expr& lowered, const std::string& name,
                       std::vector<int64_t> local) {
  codegen::CodegenOptions options;
  options.kernel_name = name;
  if (local.size() > options.local_size.size())
    user_error(cat("a work-group size of ", local.size(), " dimensions (at most 3)"));
  for (std::size_t d = 0; d < local.size(); ++d)
    options.local_size[d] = local[d];
  runner_.emplace(session, codegen::generate_program(lowered, options));
}

void StepKernel::enqueue(const cl::Buffer& input, const cl::Buffer& output) {
  runner_->bind_input(0, runtime::KernelArg(input));
  runner_->bind_output(runtime::KernelArg(output));
  runner_->bind_sizes({}, {});
  runner_->enqueue();
  launches_ += static_cast<int64_t>(runner_->program().launches.size());
}

} // namespace tessera::distributed
