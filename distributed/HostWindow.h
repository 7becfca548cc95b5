// Memory that the ranks of one host all map: an MPI-3 shared window over the ranks of a
// communicator that share this rank's host. Each rank allocates a segment of its own and sees
// the segments of the others of its host at addresses of its own.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>

#include "distributed/Mpi.h"

namespace tessera::distributed {

// Whether every rank counts as a host of its own (TESSERA_TEST_HOST_PER_RANK=1): the tests'
// stand-in for ranks on several hosts, on one machine.
bool every_rank_a_host();

class HostWindow {
public:
  // Collective over `comm`: a segment of bytes_for(on_this_host) bytes on this rank, where
  // on_this_host(r) says whether rank r of `comm` shares this rank's host. Null on every rank
  // where the window could not be made on some rank (shared memory too small, say): the caller
  // falls back to messages.
  static std::unique_ptr<HostWindow>
  allocate(const Communicator& comm,
           const std::function<std::size_t(const std::function<bool(int)>&)>& bytes_for);
  // Collective over the ranks of this host in `comm` (MPI_Win_free): the owners destroy their
  // windows in the same order on every rank, as they made them.
  ~HostWindow();
  HostWindow(const HostWindow&) = delete;
  HostWindow& operator=(const HostWindow&) = delete;

  // Where rank `rank` of the communicator keeps its segment in this process, and its size; a
  // null segment where that rank is on another host.
  struct Segment {
    unsigned char* memory = nullptr;
    std::size_t bytes = 0;
  };
  Segment segment_of(int rank) const;
  unsigned char* segment(int rank) const { return segment_of(rank).memory; }

  struct Impl;

private:
  explicit HostWindow(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace tessera::distributed
