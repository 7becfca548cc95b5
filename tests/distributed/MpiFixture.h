// MPI for the distributed tests: started on first use, finalised at exit; under mpirun every
// rank runs every test case in the same order (the cases' collective calls must match), and
// a failed check never skips a collective call (CHECK, not REQUIRE).
#pragma once

#include <vector>

#include "distributed/Mpi.h"

namespace tessera::testing {

inline distributed::Communicator mpi_world() {
  static distributed::MpiRuntime runtime;
  return distributed::Communicator::world();
}

inline bool has_nonzero_values(const std::vector<double>& values) {
  for (double v : values)
    if (v != 0)
      return true;
  return false;
}

} // namespace tessera::testing
