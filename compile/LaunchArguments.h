// The arguments of one launch of a program of kernels (codegen/Program.h), in the order of its
// kernel's parameters: the one place that binds a kernel's inputs, output and size variables to
// what a runner holds. The kernel runner (compile/KernelRunner.h) and the multigrid solver's
// program (multigrid/Program.cpp, its own schedule of launches) use it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "codegen/Program.h"
#include "runtime/KernelArg.h"

namespace tessera::explore {

// What a runner binds. Each function gets the kernel and the parameter it binds.
struct ArgumentSource {
  using Param = codegen::KernelParam;
  // The buffer a reference names (a program input, an intermediate or the output); for a scalar
  // program input, its value.
  std::function<runtime::KernelArg(const codegen::Kernel&, const Param&, const codegen::BufferRef&)>
      buffer;
  // Program input `index` as an image, for a parameter the kernel reads as one (place-image).
  // Empty: the runner has no images (an Error names the parameter).
  std::function<runtime::KernelArg(const codegen::Kernel&, const Param&, std::size_t index)> image;
  // The value of a size variable that the launch does not fix itself.
  std::function<int64_t(const codegen::Kernel&, const std::string& name)> size;
};

std::vector<runtime::KernelArg> launch_arguments(const codegen::KernelProgram& program,
                                                 const codegen::KernelLaunch& launch,
                                                 const ArgumentSource& source);

// A kernel as a program of one launch over the program's inputs (its input parameters, in order).
codegen::KernelProgram one_launch_program(const codegen::Kernel& kernel);
// A scalar argument of the kernel's kind from a host value.
runtime::KernelArg scalar_argument(ScalarKind kind, double value);

} // namespace tessera::explore
