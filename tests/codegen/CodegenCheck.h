// Shared check for code generation tests: generate a kernel, run it on PoCL and compare with
// the reference interpreter on the same random inputs.
#pragma once

#include <doctest/doctest.h>

#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "compile/Execute.h"
#include "primitives/Interpreter.h"
#include "runtime/Session.h"

namespace tessera::testing {

// Kept alive until the process ends: OpenCL implementations (Oclgrind in particular) may be
// torn down before static destructors run.
inline runtime::Session& test_session() {
  static auto* session = new runtime::Session(runtime::Session::from_env());
  return *session;
}

// Generates, runs and compares; returns the kernel for further checks on its text.
inline codegen::Kernel check_kernel(const Expr& program, const std::vector<Data>& inputs,
                                    const codegen::CodegenOptions& options = {},
                                    double tolerance = 1e-6) {
  codegen::Kernel kernel = codegen::generate_kernel(program, options);
  Data expected = evaluate(program, inputs);
  auto run = explore::execute(test_session(), kernel, inputs);
  double error = explore::max_relative_error(run.output, expected);
  INFO("kernel source:\n" << kernel.source);
  CHECK(error <= tolerance);
  // Guard against trivially passing comparisons.
  bool any_nonzero = false;
  for (double v : expected.flatten())
    any_nonzero |= v != 0;
  CHECK(any_nonzero);
  return kernel;
}

// The same for a program of kernels (codegen::generate_program).
inline codegen::KernelProgram check_program(const Expr& program, const std::vector<Data>& inputs,
                                            const codegen::CodegenOptions& options = {},
                                            double tolerance = 1e-6) {
  codegen::KernelProgram kernels = codegen::generate_program(program, options);
  Data expected = evaluate(program, inputs);
  auto run = explore::execute(test_session(), kernels, inputs);
  double error = explore::max_relative_error(run.output, expected);
  INFO("program:\n" << kernels.describe());
  CHECK(error <= tolerance);
  bool any_nonzero = false;
  for (double v : expected.flatten())
    any_nonzero |= v != 0;
  CHECK(any_nonzero);
  return kernels;
}

} // namespace tessera::testing
