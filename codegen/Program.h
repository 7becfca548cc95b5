// A program of kernels: what one lowered program becomes when a single kernel cannot compute it
// (codegen/Stages.h says where it is cut). Launches run in order on one device, each reading
// program inputs or intermediate buffers written by earlier launches; intermediates whose value
// is no longer read are reused (an iterated stencil ping-pongs between two buffers).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "codegen/Kernel.h"
#include "codegen/Stages.h"

namespace tessera::codegen {

// A device buffer between launches.
struct ProgramBuffer {
  ScalarKind element = ScalarKind::F32;
  ArithExpr element_count; // scalars; may depend on the program's size variables
};

struct KernelLaunch {
  std::size_t kernel = 0; // index in KernelProgram::kernels
  // The buffer of each Input parameter of the kernel, in order; Intermediate indices name
  // KernelProgram::buffers. The output is a buffer or the program's output.
  std::vector<BufferRef> inputs;
  BufferRef output;
  // Values of the kernel's Size parameters that change from launch to launch (a wavefront's
  // number, codegen/TimeTiled.h); the others are the program's size variables.
  std::map<std::string, int64_t> arguments;
  // A part of the kernel's range (a split launch, codegen/SplitLaunch.h): `extent` work-items per
  // dimension (OpenCL's x first) from the global offset `offset`; empty: the whole range.
  std::vector<int64_t> offset, extent;
};

struct KernelProgram {
  std::vector<Kernel> kernels;        // distinct kernels (steps of an Iterate share one)
  std::vector<ProgramBuffer> buffers; // intermediates
  std::vector<KernelLaunch> launches; // in order; the last one writes the program's output
  std::vector<Type> input_types;
  Type output_type = f32();
  // The conditions of every kernel on the size variables (Kernel::size_conditions).
  std::vector<Assumption> size_conditions;
  // A split launch's margin (codegen/SplitLaunch.h: its launches after the first are slabs this
  // thin along one axis); 0: not a split launch.
  int64_t split_margin = 0;
  std::string describe() const;
};

// Generates the kernels of a lowered program: one launch when one kernel can compute it (then
// kernels[0] is what generate_kernel gives), otherwise one per stage. options.kernel_name names
// the kernel, or prefixes the stages' kernels (name_s0, name_s1, ...).
KernelProgram generate_program(const Expr& program, const CodegenOptions& options = {});

// A program of one kernel (for code that has a kernel and runs programs).
KernelProgram single_kernel_program(Kernel kernel, std::vector<Type> input_types);

} // namespace tessera::codegen
