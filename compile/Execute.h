// Running a generated kernel on host data: binds the size variables from the inputs' lengths,
// uploads the inputs, launches through the kernel runner (compile/KernelRunner.h) and reads the
// result back as Data shaped like the program's result type. This is what checks a kernel
// against the reference interpreter.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "core/Data.h"
#include "runtime/Session.h"
#include "runtime/Timing.h"

namespace tessera::explore {

struct Execution {
  Data output;
  double kernel_ms = 0; // from profiling events
  std::map<std::string, int64_t> sizes;
};

Execution execute(runtime::Session& session, const codegen::Kernel& kernel,
                  const std::vector<Data>& inputs);
// Runs every launch of a program of kernels in order (intermediates in device buffers);
// kernel_ms is the sum of the launches.
Execution execute(runtime::Session& session, const codegen::KernelProgram& program,
                  const std::vector<Data>& inputs);

// Runs an f32 kernel on flat host arrays (row-major), for sizes where Data would be too big:
// warm-up launches, then the median of repeated launches. Size variables must be given.
struct FlatExecution {
  std::vector<float> output;
  runtime::Timing timing;
};
FlatExecution execute_flat(runtime::Session& session, const codegen::Kernel& kernel,
                           const std::vector<const std::vector<float>*>& inputs,
                           const std::map<std::string, int64_t>& sizes,
                           runtime::TimingOptions timing = {});

// Largest absolute difference relative to max(1, |reference|) over all scalars; throws Error
// when the shapes differ.
double max_relative_error(const Data& result, const Data& reference);

} // namespace tessera::explore
