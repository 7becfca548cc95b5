// A rank's step kernel (LocalStep.h): a program whose sizes are constants (the extended block's
// or a shell box's), generated, built on the rank's device and enqueued from one buffer into
// another.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "codegen/Program.h"
#include "compile/DeviceValues.h"
#include "compile/KernelRunner.h"
#include "runtime/Buffer.h"
#include "runtime/Session.h"

namespace tessera::distributed {

using explore::element_bytes; // one definition (compile/DeviceValues.h)

class StepKernel {
public:
  // `lowered`: the program after lowering (rewrite::lower_default or a chosen variant), its
  // sizes constants. `local`: the work-group size of every launch, OpenCL's dimension 0 first
  // (empty: the kernel's own or automatic); a MapGlb whose extent it does not divide gets a
  // guard and a global size rounded up.
  StepKernel(runtime::Session& session, const Expr& lowered, const std::string& name,
             std::vector<int64_t> local = {});

  // Enqueues the program once, `input` to `output` (not waited for, except when the runner
  // allocates and zero-fills an intermediate).
  void enqueue(const cl::Buffer& input, const cl::Buffer& output);
  int64_t launches() const { return launches_; }

private:
  std::optional<explore::KernelRunner> runner_; // set by the constructor
  int64_t launches_ = 0;
};

} // namespace tessera::distributed
