// A rank's step kernel, built on its device: the block's step (its sizes constants: the extended
// block's) run on the whole extended block, or the rank-local step (LocalStep.h) run k times on
// a shell box with its sizes passed as arguments (one build serves every box).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "codegen/Program.h"
#include "compile/DeviceValues.h"
#include "compile/KernelRunner.h"
#include "distributed/BlockGrid.h"
#include "runtime/Buffer.h"
#include "runtime/Session.h"

namespace tessera::distributed {

using explore::element_bytes; // one definition (compile/DeviceValues.h)

class StepKernel {
public:
  // `lowered`: the step after lowering (rewrite::lower_default or a chosen variant).
  // `local`: the work-group size of every launch, OpenCL's dimension 0 first (empty: the
  // kernel's own or automatic); a MapGlb whose extent it does not divide gets a guard and a
  // global size rounded up, so any box shape runs.
  StepKernel(runtime::Session& session, const Expr& lowered, const std::string& name,
             std::vector<int64_t> local = {});

  // Enqueues `steps` steps on the box held in `input` (extents `extent`, outermost first),
  // each step shrinking it by r on its internal sides; `a` and `b` are scratch buffers at least
  // as large as the box. Returns the buffer that holds the result (a or b); nothing is waited
  // for, except when the runner allocates (and zero-fills) a larger intermediate. Error when a
  // step's sizes break a condition of the kernel (a box too thin for it).
  const cl::Buffer& enqueue_steps(const cl::Buffer& input, std::vector<int64_t> extent,
                                  const Sides& internal, int64_t radius, int steps,
                                  const cl::Buffer& a, const cl::Buffer& b);
  // Enqueues one step of a kernel whose sizes are constants, `input` to `output`.
  void enqueue_constant_step(const cl::Buffer& input, const cl::Buffer& output) {
    enqueue_step(input, output, {});
  }
  int64_t launches() const { return launches_; }

private:
  void enqueue_step(const cl::Buffer& in, const cl::Buffer& out,
                    const std::map<std::string, int64_t>& sizes);

  std::optional<explore::KernelRunner> runner_; // set by the constructor
  int64_t launches_ = 0;
};

} // namespace tessera::distributed
