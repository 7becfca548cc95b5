// The little of MPI that tessera uses, behind a header that does not include <mpi.h>: start and
// end MPI, the Cartesian grid of ranks, nonblocking neighbour exchange, reductions, abort.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::distributed {

// MPI_Init_thread (funneled) for the lifetime of the object unless MPI is already running;
// MPI_Finalize at the end when this object started it. Without mpirun, Open MPI starts one rank
// (a singleton).
class MpiRuntime {
public:
  MpiRuntime();
  ~MpiRuntime();
  MpiRuntime(const MpiRuntime&) = delete;
  MpiRuntime& operator=(const MpiRuntime&) = delete;

private:
  bool started_ = false;
};

class Communicator;

// Pending nonblocking messages between the ranks of a communicator; wait() completes them.
class Requests {
public:
  explicit Requests(const Communicator& comm);
  ~Requests();
  Requests(Requests&&) noexcept;
  // The requests of one send or receive (several when it is split into messages).
  struct Range {
    std::size_t first = 0, last = 0;
  };
  Range send(const void* data, std::size_t bytes, int to, int tag);
  Range receive(void* data, std::size_t bytes, int from, int tag);
  // Waits for one send or receive.
  void wait(Range range);
  // Waits for all of them.
  void wait();
  struct Impl;

private:
  std::unique_ptr<Impl> impl_;
};

class Communicator {
public:
  // MPI_COMM_WORLD (MPI must be running).
  static Communicator world();
  // MPI_COMM_SELF: this rank alone (a single-rank run inside a run of several).
  static Communicator self();

  int rank() const;
  int size() const;
  // The number of ranks along each dimension for `dims` dimensions (MPI_Dims_create).
  std::vector<int> balanced_dims(int dims) const;
  // A Cartesian communicator over `ranks` (their product must be size()), periodic when asked;
  // rank order is kept, so rank r has the row-major coordinates of r.
  Communicator cartesian(const std::vector<int>& ranks, bool periodic) const;
  // The neighbour along dimension `dim` on the low (side 0) or high (side 1) side; -1 at a
  // non-periodic edge.
  int neighbour(int dim, int side) const;
  // The first `count` ranks as a communicator of their own (rank order kept): every rank must
  // call it; the ranks from `count` on get none.
  std::optional<Communicator> first(int count) const;
  // The index of this rank among the ranks of its host (for round-robin device choice).
  int host_rank() const;

  uint64_t sum(uint64_t value) const;
  double max(double value) const;
  double sum(double value) const;
  void barrier() const;
  // Rank 0 receives every rank's bytes in rank order; others get an empty vector. Any size (a
  // part over 2 GiB included).
  std::vector<std::vector<unsigned char>> gather(const std::vector<unsigned char>& mine) const;
  // Rank 0's bytes to every rank (the others' `data` is replaced, whatever its size).
  void broadcast(std::vector<unsigned char>& data) const;
  // Prints "error: rank R of P: <what>; ending every rank" and ends every rank of the run
  // (exit status 1): a failure on one rank never leaves the others waiting.
  [[noreturn]] void fail(const std::string& what) const;

  struct Impl;

private:
  friend class Requests;
  friend class HostWindow;
  std::shared_ptr<Impl> impl_;
};

// The largest single MPI message in bytes (default 1 GiB: MPI counts are int). Larger sends,
// receives, gathers and broadcasts travel as several messages in order; tests lower the limit
// to exercise that path on small data. Every rank must use the same limit (a receiver splits
// as its sender does).
void set_message_limit(std::size_t bytes);
std::size_t message_limit();

// Wall-clock seconds (MPI_Wtime).
double wall_seconds();

} // namespace tessera::distributed
