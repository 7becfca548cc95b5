#include "distributed/StepKernel.h"

#include "core/Error.h"
#include "core/SizeBinding.h"
#include "distributed/LocalStep.h"

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

void StepKernel::enqueue_step(const cl::Buffer& in, const cl::Buffer& out,
                              const std::map<std::string, int64_t>& sizes) {
  const codegen::KernelProgram& program = runner_->program();
  check_assumptions(program.size_conditions, sizes,
                    cat("the local step ", program.kernels[0].name));
  runner_->bind_input(0, runtime::KernelArg(in));
  runner_->bind_output(runtime::KernelArg(out));
  runner_->bind_sizes(sizes, {});
  runner_->enqueue();
  launches_ += static_cast<int64_t>(program.launches.size());
}

const cl::Buffer& StepKernel::enqueue_steps(const cl::Buffer& input, std::vector<int64_t> extent,
                                            const Sides& internal, int64_t radius, int steps,
                                            const cl::Buffer& a, const cl::Buffer& b) {
  const int dims = static_cast<int>(extent.size());
  auto names = box_size_names(dims);
  auto drops = drop_size_names(dims);
  const cl::Buffer* in = &input;
  for (int s = 0; s < steps; ++s) {
    std::map<std::string, int64_t> sizes;
    for (int d = 0; d < dims; ++d) {
      sizes[names[d]] = extent[d];
      sizes[drops[d][0]] = internal[d][0] ? radius : 0;
      sizes[drops[d][1]] = internal[d][1] ? radius : 0;
    }
    const cl::Buffer& out = (s % 2 == 0) ? a : b;
    enqueue_step(*in, out, sizes);
    in = &out;
    for (std::size_t d = 0; d < extent.size(); ++d)
      extent[d] -= radius * ((internal[d][0] ? 1 : 0) + (internal[d][1] ? 1 : 0));
  }
  return *in;
}

} // namespace tessera::distributed
