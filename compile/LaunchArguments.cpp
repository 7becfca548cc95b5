#include "compile/LaunchArguments.h"

#include "core/Error.h"

namespace tessera::explore {

std::vector<runtime::KernelArg> launch_arguments(const codegen::KernelProgram& program,
                                                 const codegen::KernelLaunch& launch,
                                                 const ArgumentSource& source) {
  const codegen::Kernel& kernel = program.kernels.at(launch.kernel);
  std::vector<runtime::KernelArg> args;
  std::size_t next_input = 0;
  for (const auto& p : kernel.params) {
    switch (p.role) {
    case codegen::KernelParam::Input: {
      const codegen::BufferRef& r = launch.inputs.at(next_input++);
      if (!is_image(p.space)) {
        args.push_back(source.buffer(kernel, p, r));
        break;
      }
      if (r.kind != codegen::BufferRef::ProgramInput || !source.image)
        user_error(cat("kernel ", kernel.name, " input '", p.name,
                       "' is an image: only program inputs can be"));
      args.push_back(source.image(kernel, p, r.index));
      break;
    }
    case codegen::KernelParam::Output:
      args.push_back(source.buffer(kernel, p, launch.output));
      break;
    case codegen::KernelParam::Size: {
      // A launch of a program of kernels may fix a size of its own (a time-tiled band's index).
      auto own = launch.arguments.find(p.name);
      int64_t value = own != launch.arguments.end() ? own->second : source.size(kernel, p.name);
      args.push_back(runtime::KernelArg(static_cast<int32_t>(value)));
      break;
    }
    }
  }
  return args;
}

codegen::KernelProgram one_launch_program(const codegen::Kernel& kernel) {
  std::vector<Type> types;
  for (const auto& p : kernel.params)
    if (p.role == codegen::KernelParam::Input)
      types.push_back(p.type);
  return codegen::single_kernel_program(kernel, std::move(types));
}

runtime::KernelArg scalar_argument(ScalarKind kind, double v) {
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

} // namespace tessera::explore
