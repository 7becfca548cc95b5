// One session on the device TESSERA_DEVICE names (PoCL by default), shared by the multigrid
// tests of the executable. Never destroyed: the device's threads may outlive main.
#pragma once

#include "runtime/Session.h"
#include "tests/KernelsBuiltTogether.h"

namespace tessera::testing {

inline runtime::Session& multigrid_session() {
  static auto* s = new runtime::Session(runtime::Session::from_env());
  return *s;
}

// with_kernels_built_together on the multigrid tests' session.
template <class Checks> void with_kernels_built_together(Checks checks) {
  with_kernels_built_together(multigrid_session(), checks);
}

} // namespace tessera::testing
