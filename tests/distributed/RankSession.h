// The device session of this test process (one rank of an MPI test run): every test of the
// process shares it, so its kernels are built once.
#pragma once

#include "runtime/Session.h"

namespace tessera::testing {

inline runtime::Session& rank_session() {
  static runtime::Session session = runtime::Session::from_env();
  return session;
}

} // namespace tessera::testing
