// One session on the device TESSERA_DEVICE names (PoCL by default), shared by the multigrid
// tests of the executable. Never destroyed: the device's threads may outlive main.
#pragma once

#include "runtime/Session.h"

namespace tessera::testing {

inline runtime::Session& multigrid_session() {
  static auto* s = new runtime::Session(runtime::Session::from_env());
  return *s;
}

} // namespace tessera::testing
