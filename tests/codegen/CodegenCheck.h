// Shared check for code generation tests: generate a kernel, run it on PoCL and compare with
// the reference interpreter on the same random inputs.
#pragma once

#include <doctest/doctest.h>

#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "compile/Execute.h"
#include "compile/KernelRunner.h"
#include "primitives/Interpreter.h"
#include "runtime/Session.h"
#include "tests/KernelsBuiltTogether.h"

namespace tessera::testing {

// Kept alive until the process ends: OpenCL implementations (Oclgrind in particular) may be
// torn down before static destructors run.
inline runtime::Session& test_session() {
  static auto* session = new runtime::Session(runtime::Session::from_env());
  return *session;
}

// Builds `kernels` as one OpenCL program (PoCL), so that each later check's build takes its
// kernel from the session's cache: a test that checks many variants pays PoCL's cost per program
// (its OpenCL header parsed, about 0.1 s) once, not once a variant. Nothing is built on another
// device; a kernel that does not build makes each build alone, with its error.
inline void build_together(const std::vector<codegen::Kernel>& kernels,
                           runtime::Session& session = test_session()) {
  explore::build_together(session, kernels);
}

// The same for the kernels of programs of kernels (check_program's).
inline void build_together(const std::vector<codegen::KernelProgram>& programs,
                           runtime::Session& session = test_session()) {
  std::vector<codegen::Kernel> kernels;
  for (const auto& p : programs)
    kernels.insert(kernels.end(), p.kernels.begin(), p.kernels.end());
  build_together(kernels, session);
}

// The same for the kernels check_kernel generates from `programs` with `options`.
inline void build_kernels_together(const std::vector<Expr>& programs,
                                   const codegen::CodegenOptions& options = {}) {
  std::vector<codegen::Kernel> kernels;
  for (const auto& p : programs)
    kernels.push_back(codegen::generate_kernel(p, options));
  build_together(kernels);
}

// The programs of variants (rewrite::Variant, explore's lowered variants) and of a rule's
// alternatives, for build_kernels_together.
template <class Variants> std::vector<Expr> variant_programs(const Variants& variants) {
  std::vector<Expr> programs;
  for (const auto& v : variants)
    programs.push_back(v.program);
  return programs;
}
template <class Alternatives> std::vector<Expr> replacements(const Alternatives& alternatives) {
  std::vector<Expr> programs;
  for (const auto& a : alternatives)
    programs.push_back(a.replacement);
  return programs;
}

// Generates, runs and compares; returns the kernel for further checks on its text.
inline codegen::Kernel check_kernel(const Expr& program, const std::vector<Data>& inputs,
                                    const codegen::CodegenOptions& options = {},
                                    double tolerance = 1e-6) {
  codegen::Kernel kernel = codegen::generate_kernel(program, options);
  if (auto* collected = collected_kernels()) {
    collected->push_back(kernel);
    return kernel;
  }
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
  if (auto* collected = collected_kernels()) {
    collected->insert(collected->end(), kernels.kernels.begin(), kernels.kernels.end());
    return kernels;
  }
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
