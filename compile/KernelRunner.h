// Running a program of generated kernels (codegen/Program.h): the one component that binds a
// program's inputs, output, intermediates and size variables to device arguments (through
// launch_arguments), launches every kernel in order and times repetitions with profiling
// events. Its callers hold the data: explore::execute (host Data, sizes from the inputs),
// execute_flat (flat f32 arrays), the explorer's Workload (random inputs uploaded once, one
// output for every variant) and the distributed local step (distributed/StepKernel.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "core/Target.h"
#include "runtime/Buffer.h"
#include "runtime/Kernel.h"
#include "runtime/KernelArg.h"
#include "runtime/Range.h"
#include "runtime/Session.h"
#include "runtime/Timing.h"

namespace tessera::explore {

// The value of a constant size (the explorer bakes every size); Error naming `what` otherwise.
int64_t constant(const ArithExpr& e, const std::string& what);

// The launch of a generated kernel: its global sizes are constants (baked) or evaluated with
// `sizes` (the size variables bound from the inputs). A kernel that leaves its work-group open
// gets one on a CPU `target` where it has private arrays (cpu_work_group within
// Target::max_private_bytes_per_group: an implementation's own choice may overflow its stack).
struct LaunchRange {
  runtime::Range global;
  runtime::Range local;  // empty: the implementation chooses
  runtime::Range offset; // empty: from 0
};
LaunchRange launch_range(const codegen::Kernel& kernel,
                         const std::map<std::string, int64_t>& sizes = {},
                         const Target* target = nullptr);
// The range of one launch of a program: its kernel's, or the part of it the launch names
// (KernelLaunch::offset and extent: a split launch), with a work-group chosen as above for it.
LaunchRange launch_range(const codegen::KernelProgram& program, const codegen::KernelLaunch& launch,
                         const std::map<std::string, int64_t>& sizes = {},
                         const Target* target = nullptr);

// The kernels of a program, built on the session's device (launches index them).
std::vector<runtime::Kernel> build_program(runtime::Session& session,
                                           const codegen::KernelProgram& program);

// Builds kernels (of several programs) ahead of their launches, so that later builds of any of
// them on this session (build_program, every KernelRunner) take them from its cache. On PoCL as
// one OpenCL program: a device compiler's cost per program (about 0.1 s, its OpenCL header parsed
// and its library linked) is paid once; the kernels keep their code, only their names in the
// shared program differ. Other drivers compile every kernel of a program in its build, so there
// each kernel is its own program, up to kParallelBuilds of them built at once (build_in_parallel:
// NVIDIA's compiler takes minutes for HPGMG-FV's 4th-order kernels, one at a time). False when
// nothing was built ahead (fewer than two kernels) or PoCL's shared program does not build: each
// kernel then builds on its own when asked for, with its own error.
bool build_together(runtime::Session& session, const std::vector<codegen::Kernel>& kernels);
constexpr std::size_t kParallelBuilds = 8;
// Each kernel's own program built on up to `threads` host threads at once (OpenCL builds of
// different programs may run concurrently); one that fails is left to its own build. False when
// fewer than two would run at once.
bool build_in_parallel(runtime::Session& session, const std::vector<codegen::Kernel>& kernels,
                       std::size_t threads);

class KernelRunner {
public:
  // Builds the program's kernels, or takes them built (build_program's).
  KernelRunner(runtime::Session& session, codegen::KernelProgram program);
  KernelRunner(runtime::Session& session, codegen::KernelProgram program,
               std::vector<runtime::Kernel> built);

  // Program input `index`: a device buffer, or the value of a scalar input (scalar_argument).
  // `kind`, when given, is checked against each kernel parameter that reads it. `image` makes
  // the input as an image for a parameter placed in one (place-image), once per runner.
  void bind_input(std::size_t index, runtime::KernelArg arg,
                  std::optional<ScalarKind> kind = std::nullopt,
                  std::function<runtime::Image()> image = {});
  void bind_output(runtime::KernelArg arg);
  // The size variables of the launches (global sizes, size arguments, intermediates' lengths);
  // `missing` gives the Error's message when a kernel needs one that is not there.
  using MissingSize = std::function<std::string(const codegen::Kernel&, const std::string& size)>;
  void bind_sizes(std::map<std::string, int64_t> sizes, MissingSize missing);

  // Enqueues every launch in order without waiting (intermediates: device buffers zero-filled
  // when allocated, then reused while large enough, holding the previous call's values).
  void enqueue();
  // Runs every launch in order, each waited for; returns the sum of their profiled times.
  double run();
  // `warmup` untimed runs, then the statistics of `repeats` timed ones (a repetition's time is
  // the sum of its launches).
  runtime::Timing time(runtime::TimingOptions options);

  const codegen::KernelProgram& program() const { return program_; }

private:
  struct Input {
    std::optional<runtime::KernelArg> arg;
    std::optional<ScalarKind> kind;
    std::function<runtime::Image()> make_image;
    std::optional<runtime::KernelArg> image;
  };
  // The arguments of every launch, in order.
  std::vector<std::vector<runtime::KernelArg>> arguments();
  // Runs every launch once with these arguments; the sum of their profiled times.
  double run_launches(const std::vector<std::vector<runtime::KernelArg>>& args);
  int64_t size(const ArithExpr& e, const std::string& what) const;
  const runtime::RawBuffer& intermediate(std::size_t index);

  runtime::Session* session_;
  Target target_; // the session's device's (launch_range)
  codegen::KernelProgram program_;
  std::vector<runtime::Kernel> built_;
  std::vector<Input> inputs_;
  std::optional<runtime::KernelArg> output_;
  std::map<std::string, int64_t> sizes_;
  MissingSize missing_;
  std::vector<std::unique_ptr<runtime::RawBuffer>> intermediates_;
};

} // namespace tessera::explore
