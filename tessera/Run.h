// tessera's public C++ API, part 6: running a variant on the user's own buffers.
//
//   auto device = tessera::open_device();
//   std::vector<float> grid(64 * 64, 1.0f);                       // row-major, outermost first
//   std::vector<float> out = tessera::run_variant(device, best, {grid});
//
// Inputs are flat row-major arrays in the order of the program's inputs; the result is flat
// too. Size variables are bound from the program's constant sizes or given in `sizes`.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "compile/Agreement.h"
#include "core/Data.h"
#include "runtime/Session.h"
#include "tessera/Kernel.h"

namespace tessera {

// The one comparison of an output with its reference that `tessera run`, the explorer and the
// tests use: max |out - ref| / max(1, |ref|) (max_relative_difference), within kTolerance = 1e-4
// (within_tolerance).
using explore::kTolerance;
using explore::max_relative_difference;
using explore::within_tolerance;

struct RunResult {
  std::vector<float> output;
  double kernel_ms = 0; // median of the timed launches (profiling events)
};

// Runs an f32 kernel on flat f32 inputs (warm-up, then the median of `repeats` launches).
// Error when the number of inputs or a buffer's length does not match the kernel's arguments,
// and for a kernel of other element types (f64, integers: run them on Data, below).
RunResult run_kernel(runtime::Session& device, const codegen::Kernel& kernel,
                     const std::vector<std::vector<float>>& inputs,
                     const std::map<std::string, int64_t>& sizes = {}, int repeats = 1);

// A program of kernels (emit_program: one launch, or one per step of an iterated stencil): every
// launch in order, the intermediates in device buffers; inputs as for run_kernel, in the order
// of the program's inputs. kernel_ms: the launches' sum, the median of `repeats` runs.
RunResult run_kernel(runtime::Session& device, const codegen::KernelProgram& program,
                     const std::vector<std::vector<float>>& inputs,
                     const std::map<std::string, int64_t>& sizes = {}, int repeats = 1);

// Generates the variant's kernel (or program of kernels: every launch in order) and runs it
// once; returns the output.
std::vector<float> run_variant(runtime::Session& device, const explore::VariantInfo& variant,
                               const std::vector<std::vector<float>>& inputs,
                               const std::map<std::string, int64_t>& sizes = {});

// The same on Data (any element type, shapes checked, size variables bound from the shapes):
// what the tests use to compare a kernel with the interpreter.
Data run_kernel(runtime::Session& device, const codegen::Kernel& kernel,
                const std::vector<Data>& inputs);
Data run_kernel(runtime::Session& device, const codegen::KernelProgram& program,
                const std::vector<Data>& inputs);

} // namespace tessera
