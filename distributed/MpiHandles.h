// What the files of distributed/ that call MPI themselves share, included by their .cpp files only
// (<mpi.h> stays out of the headers a user includes): a communicator's handle and the check of
// MPI's return codes.
#pragma once

#include <mpi.h>

#include "distributed/Mpi.h"

namespace tessera::distributed {

struct Communicator::Impl {
  MPI_Comm comm = MPI_COMM_WORLD;
  bool owned = false; // freed with the object
  ~Impl();
};

// Throws tessera::Error naming `what` and MPI's message unless `code` is MPI_SUCCESS.
void check_mpi(int code, const char* what);

} // namespace tessera::distributed
