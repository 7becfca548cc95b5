// The data the explorer runs every variant of one program on: deterministic random inputs of
// the program's input types, held flat on the host and uploaded once, and one output buffer
// that all variants write; each run goes through a KernelRunner bound to them. Unlike
// explore::execute (which goes through Data, one object per scalar), this handles grids of
// millions of points.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "compile/Agreement.h" // max_relative_difference
#include "compile/KernelRunner.h"
#include "core/Data.h"
#include "core/Expr.h"
#include "runtime/Buffer.h"
#include "runtime/KernelArg.h"
#include "runtime/Range.h"
#include "runtime/Session.h"
#include "runtime/Timing.h"

namespace tessera::explore {

// One input or output array, flat in row-major order.
struct HostArray {
  Type type = f32();
  ScalarKind kind = ScalarKind::F32;
  std::vector<int64_t> shape; // empty for a scalar
  std::vector<double> values;
  std::size_t element_bytes() const;
};

// The values random_inputs(program, seed) would give (same generator and seeds), without
// building Data. Every length must be a constant.
std::vector<HostArray> random_host_inputs(const Expr& program, uint32_t seed);

class Workload {
public:
  Workload(runtime::Session& session, const Expr& program, uint32_t seed = 1);

  const std::vector<HostArray>& inputs() const { return inputs_; }
  // The inputs as Data, for the reference interpreter (small grids only).
  std::vector<Data> input_data() const;

  // Runs the kernel once on the inputs, the output buffer first filled with NaN (for floating
  // outputs) so that elements a kernel forgets to write are caught, and returns the output.
  std::vector<double> run(const codegen::Kernel& kernel, runtime::Kernel& built);
  // The same run, compared with `reference` as it is read back: max_relative_difference of the
  // output, without a copy of the output as doubles (grids of 10^8 points are checked for every
  // variant the explorer times, so the check must cost little more than the transfer).
  double run_and_compare(const codegen::Kernel& kernel, runtime::Kernel& built,
                         const std::vector<double>& reference);
  // Times the kernel (warm-up, median of repeats) on the inputs.
  runtime::Timing time(const codegen::Kernel& kernel, runtime::Kernel& built,
                       runtime::TimingOptions options);

  // The same for a program of kernels (built: build_program's kernels): every launch in order,
  // intermediates in device buffers; a repetition's time is the sum of its launches.
  std::vector<double> run(const codegen::KernelProgram& program,
                          std::vector<runtime::Kernel>& built);
  double run_and_compare(const codegen::KernelProgram& program, std::vector<runtime::Kernel>& built,
                         const std::vector<double>& reference);
  runtime::Timing time(const codegen::KernelProgram& program, std::vector<runtime::Kernel>& built,
                       runtime::TimingOptions options);

  // Bytes one sweep must move: every input array read once and the output written once
  // (intermediates of a program of kernels are not counted: they are the variant's cost).
  std::size_t bytes_moved(const codegen::Kernel& kernel) const;
  std::size_t bytes_moved(const codegen::KernelProgram& program) const;
  // Number of output scalars (grid cells computed by one sweep).
  std::size_t output_cells(const codegen::Kernel& kernel) const;
  std::size_t output_cells(const codegen::KernelProgram& program) const;

private:
  // (Re)allocates the output for the program's result.
  void prepare_output(const codegen::KernelProgram& program);
  // A runner of the program bound to the inputs and the output.
  KernelRunner runner(const codegen::KernelProgram& program, std::vector<runtime::Kernel> built);
  // Runs once on a NaN-filled output and reads the output into output_bytes_.
  void launch_and_read(const codegen::KernelProgram& program, std::vector<runtime::Kernel>& built);

  runtime::Session* session_;
  std::vector<HostArray> inputs_;
  std::vector<runtime::RawBuffer> input_buffers_; // empty RawBuffer for scalar inputs
  // Inputs read as images by some kernel (place-image), made on first use.
  std::map<std::size_t, runtime::Image> input_images_;
  runtime::RawBuffer output_;
  ScalarKind output_kind_ = ScalarKind::F32;
  std::size_t output_count_ = 0;
  std::vector<unsigned char> output_bytes_; // the last output read back, reused between runs
};

// True when some value is neither zero nor NaN.
bool has_nonzero(const std::vector<double>& values);

} // namespace tessera::explore
