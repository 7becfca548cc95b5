// One session on the device TESSERA_DEVICE names (PoCL by default), shared by the multigrid
// tests of the executable. Never destroyed: the device's threads may outlive main.
#pragma once

#include <vector>

#include "codegen/Kernel.h"
#include "compile/KernelRunner.h"
#include "runtime/Session.h"

namespace tessera::testing {

inline runtime::Session& multigrid_session() {
  static auto* s = new runtime::Session(runtime::Session::from_env());
  return *s;
}

// A test that checks many small kernels one at a time runs its checks twice (with_kernels_built
// _together): first each check only adds the kernels it would build to collected_kernels(), which
// are then built as one program (explore::build_together: PoCL's cost per program, about 0.1 s,
// paid once), then checking, each kernel taken from the session's cache. Null outside the first
// pass.
inline std::vector<codegen::Kernel>*& collected_kernels() {
  static std::vector<codegen::Kernel>* kernels = nullptr;
  return kernels;
}

template <class Checks> void with_kernels_built_together(Checks checks) {
  std::vector<codegen::Kernel> kernels;
  collected_kernels() = &kernels;
  try {
    checks();
  } catch (...) {
    collected_kernels() = nullptr;
    throw;
  }
  collected_kernels() = nullptr;
  explore::build_together(multigrid_session(), kernels);
  checks();
}

} // namespace tessera::testing
