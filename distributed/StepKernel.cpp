#include "distributed/StepKernel.h"

#include "core/Error.h"
#include "core/SizeBinding.h"
#include "distributed/LocalStep.h"
#include "explore/LaunchArguments.h"
#include "explore/Workload.h"
#include "explore/runtime/Launch.h"

namespace tessera::distributed {

std::size_t element_bytes(ScalarKind kind) {
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

StepKernel::StepKernel(runtime::Session& session, const Expr& lowered, const std::string& name,
                       std::vector<int64_t> local)
    : session_(&session) {
  codegen::CodegenOptions options;
  options.kernel_name = name;
  if (local.size() > options.local_size.size())
    user_error(cat("a work-group size of ", local.size(), " dimensions (at most 3)"));
  for (std::size_t d = 0; d < local.size(); ++d)
    options.local_size[d] = local[d];
  program_ = codegen::generate_program(lowered, options);
  built_ = explore::build_program(session, program_);
}

const cl::Buffer& StepKernel::intermediate(std::size_t index, std::size_t bytes) {
  if (intermediates_.size() <= index)
    intermediates_.resize(index + 1);
  auto& slot = intermediates_[index];
  if (!slot || slot->bytes() < bytes)
    slot = std::make_unique<runtime::RawBuffer>(*session_, std::max<std::size_t>(bytes, 1));
  return slot->handle();
}

void StepKernel::enqueue_step(const cl::Buffer& in, const cl::Buffer& out,
                              const std::map<std::string, int64_t>& sizes) {
  check_assumptions(program_.size_conditions, sizes,
                    cat("the local step ", program_.kernels[0].name));
  explore::ArgumentSource source;
  source.buffer = [&](const codegen::Kernel&, const codegen::KernelParam&,
                      const codegen::BufferRef& r) -> runtime::KernelArg {
    switch (r.kind) {
    case codegen::BufferRef::ProgramInput:
      return runtime::KernelArg(in);
    case codegen::BufferRef::ProgramOutput:
      return runtime::KernelArg(out);
    case codegen::BufferRef::Intermediate: {
      const auto& b = program_.buffers.at(r.index);
      auto count = static_cast<std::size_t>(b.element_count.evaluate(sizes));
      return runtime::KernelArg(intermediate(r.index, count * element_bytes(b.element)));
    }
    }
    internal_error("unknown buffer reference");
  };
  source.size = [&](const codegen::Kernel&, const std::string& name) { return sizes.at(name); };
  for (const auto& launch : program_.launches) {
    const codegen::Kernel& kernel = program_.kernels.at(launch.kernel);
    std::vector<runtime::KernelArg> args = explore::launch_arguments(program_, launch, source);
    auto& built = built_.at(launch.kernel);
    runtime::set_args(built, args);
    auto range = explore::launch_range(kernel, sizes);
    runtime::enqueue(*session_, built, range.global, range.local);
    ++launches_;
  }
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
