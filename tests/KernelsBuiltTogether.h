// A test that checks many kernels one at a time runs its checks twice
// (with_kernels_built_together): first each check only adds the kernels it would build to
// collected_kernels(), and they are built as one program (explore::build_together: PoCL's cost
// per program, about 0.1 s, paid once; a case of test_operators took 24.6 s so against 45.7 s
// with one program a kernel), then checking, each kernel taken from the session's cache.
#pragma once

#include <vector>

#include "codegen/Kernel.h"
#include "compile/KernelRunner.h"
#include "runtime/Session.h"

namespace tessera::testing {

// Where checks put the kernels they would build, in the first pass; null outside it.
inline std::vector<codegen::Kernel>*& collected_kernels() {
  static std::vector<codegen::Kernel>* kernels = nullptr;
  return kernels;
}

template <class Checks> void with_kernels_built_together(runtime::Session& session, Checks checks) {
  std::vector<codegen::Kernel> kernels;
  collected_kernels() = &kernels;
  try {
    checks();
  } catch (...) {
    collected_kernels() = nullptr;
    throw;
  }
  collected_kernels() = nullptr;
  explore::build_together(session, kernels);
  checks();
}

} // namespace tessera::testing
