#include "distributed/Mpi.h"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "core/Error.h"
#include "distributed/MpiHandles.h"

namespace tessera::distributed {

void check_mpi(int code, const char* what) {
  if (code == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(cat("MPI: ", what, " failed: ", std::string(text, length)));
}

namespace {

std::size_t largest_message = std::size_t{1} << 30;

// Calls f(offset, bytes) for the messages that carry `total` bytes.
template <typename F> void for_each_message(std::size_t total, F f) {
  for (std::size_t offset = 0; offset < total; offset += largest_message)
    f(offset, static_cast<int>(std::min(largest_message, total - offset)));
}

} // namespace

void set_message_limit(std::size_t bytes) {
  if (bytes == 0 || bytes > static_cast<std::size_t>(INT32_MAX))
    throw Error(cat("an MPI message limit of ", bytes, " bytes (expected 1 to 2^31 - 1)"));
  largest_message = bytes;
}

std::size_t message_limit() {
  return largest_message;
}

MpiRuntime::MpiRuntime() {
  int running = 0;
  MPI_Initialized(&running);
  if (running)
    return;
  int provided = 0;
  check_mpi(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
  // Errors come back as codes (and become tessera::Error) instead of ending the run silently.
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  started_ = true;
}

MpiRuntime::~MpiRuntime() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (started_ && !finalized)
    MPI_Finalize();
}

Communicator::Impl::~Impl() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (owned && !finalized)
    MPI_Comm_free(&comm);
}

struct Requests::Impl {
  MPI_Comm comm;
  std::vector<MPI_Request> requests;
};

Requests::Requests(const Communicator& comm)
    : impl_(std::make_unique<Impl>(Impl{comm.impl_->comm, {}})) {}
Requests::~Requests() = default;
Requests::Requests(Requests&&) noexcept = default;

// Messages between two ranks with one tag arrive in the order they were sent (MPI's
// non-overtaking rule), so the pieces of a large transfer need no tags of their own.
Requests::Range Requests::send(const void* data, std::size_t bytes, int to, int tag) {
  Range range{impl_->requests.size(), 0};
  for_each_message(bytes, [&](std::size_t offset, int n) {
    impl_->requests.emplace_back();
    check_mpi(MPI_Isend(static_cast<const unsigned char*>(data) + offset, n, MPI_BYTE, to, tag,
                        impl_->comm, &impl_->requests.back()),
              "MPI_Isend");
  });
  range.last = impl_->requests.size();
  return range;
}

Requests::Range Requests::receive(void* data, std::size_t bytes, int from, int tag) {
  Range range{impl_->requests.size(), 0};
  for_each_message(bytes, [&](std::size_t offset, int n) {
    impl_->requests.emplace_back();
    check_mpi(MPI_Irecv(static_cast<unsigned char*>(data) + offset, n, MPI_BYTE, from, tag,
                        impl_->comm, &impl_->requests.back()),
              "MPI_Irecv");
  });
  range.last = impl_->requests.size();
  return range;
}

void Requests::wait(Range range) {
  if (range.last > range.first) // completed requests become MPI_REQUEST_NULL
    check_mpi(MPI_Waitall(static_cast<int>(range.last - range.first),
                          impl_->requests.data() + range.first, MPI_STATUSES_IGNORE),
              "MPI_Waitall");
}

void Requests::wait() {
  if (impl_->requests.empty())
    return;
  check_mpi(MPI_Waitall(static_cast<int>(impl_->requests.size()), impl_->requests.data(),
                        MPI_STATUSES_IGNORE),
            "MPI_Waitall");
  impl_->requests.clear();
}

Communicator Communicator::world() {
  Communicator c;
  c.impl_ = std::make_shared<Impl>();
  return c;
}

Communicator Communicator::self() {
  Communicator c;
  c.impl_ = std::make_shared<Impl>();
  c.impl_->comm = MPI_COMM_SELF;
  return c;
}

int Communicator::rank() const {
  int r = 0;
  MPI_Comm_rank(impl_->comm, &r);
  return r;
}

int Communicator::size() const {
  int s = 0;
  MPI_Comm_size(impl_->comm, &s);
  return s;
}

std::vector<int> Communicator::balanced_dims(int dims) const {
  std::vector<int> ranks(dims, 0);
  check_mpi(MPI_Dims_create(size(), dims, ranks.data()), "MPI_Dims_create");
  return ranks;
}

Communicator Communicator::cartesian(const std::vector<int>& ranks, bool periodic) const {
  std::vector<int> periods(ranks.size(), periodic ? 1 : 0);
  Communicator c;
  c.impl_ = std::make_shared<Impl>();
  check_mpi(MPI_Cart_create(impl_->comm, static_cast<int>(ranks.size()), ranks.data(),
                            periods.data(), 0, &c.impl_->comm),
            "MPI_Cart_create");
  c.impl_->owned = true;
  return c;
}

int Communicator::neighbour(int dim, int side) const {
  int low = MPI_PROC_NULL, high = MPI_PROC_NULL;
  check_mpi(MPI_Cart_shift(impl_->comm, dim, 1, &low, &high), "MPI_Cart_shift");
  int n = side == 0 ? low : high;
  return n == MPI_PROC_NULL ? -1 : n;
}

std::optional<Communicator> Communicator::first(int count) const {
  MPI_Comm part = MPI_COMM_NULL;
  check_mpi(MPI_Comm_split(impl_->comm, rank() < count ? 0 : MPI_UNDEFINED, rank(), &part),
            "MPI_Comm_split");
  if (part == MPI_COMM_NULL)
    return std::nullopt;
  Communicator c;
  c.impl_ = std::make_shared<Impl>();
  c.impl_->comm = part;
  c.impl_->owned = true;
  return c;
}

int Communicator::host_rank() const {
  MPI_Comm host;
  check_mpi(MPI_Comm_split_type(impl_->comm, MPI_COMM_TYPE_SHARED, rank(), MPI_INFO_NULL, &host),
            "MPI_Comm_split_type");
  int r = 0;
  MPI_Comm_rank(host, &r);
  MPI_Comm_free(&host);
  return r;
}

uint64_t Communicator::sum(uint64_t value) const {
  uint64_t total = 0;
  check_mpi(MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, impl_->comm), "MPI_Allreduce");
  return total;
}

double Communicator::max(double value) const {
  double result = 0;
  check_mpi(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, impl_->comm), "MPI_Allreduce");
  return result;
}

double Communicator::sum(double value) const {
  double result = 0;
  check_mpi(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_SUM, impl_->comm), "MPI_Allreduce");
  return result;
}

void Communicator::barrier() const {
  check_mpi(MPI_Barrier(impl_->comm), "MPI_Barrier");
}

std::vector<std::vector<unsigned char>>
Communicator::gather(const std::vector<unsigned char>& mine) const {
  const int n = size();
  uint64_t count = mine.size();
  std::vector<uint64_t> counts(static_cast<std::size_t>(n));
  check_mpi(MPI_Gather(&count, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, 0, impl_->comm),
            "MPI_Gather");
  // Point to point rather than MPI_Gatherv, whose int counts and displacements end at 2 GiB.
  constexpr int tag = 1000; // any tag: no other messages travel on this communicator meanwhile
  std::vector<std::vector<unsigned char>> parts;
  Requests requests(*this);
  if (rank() == 0) {
    parts.resize(static_cast<std::size_t>(n));
    parts[0] = mine;
    for (int r = 1; r < n; ++r) {
      parts[r].resize(counts[r]);
      requests.receive(parts[r].data(), parts[r].size(), r, tag);
    }
  } else {
    requests.send(mine.data(), mine.size(), 0, tag);
  }
  requests.wait();
  return parts;
}

void Communicator::broadcast(std::vector<unsigned char>& data) const {
  uint64_t bytes = data.size();
  check_mpi(MPI_Bcast(&bytes, 1, MPI_UINT64_T, 0, impl_->comm), "MPI_Bcast");
  data.resize(bytes);
  for_each_message(bytes, [&](std::size_t offset, int count) {
    check_mpi(MPI_Bcast(data.data() + offset, count, MPI_BYTE, 0, impl_->comm), "MPI_Bcast");
  });
}

void Communicator::fail(const std::string& what) const {
  // One write: mpirun interleaves the ranks' output at the writes' boundaries, and a message
  // written in pieces once had another rank's line in its middle.
  const std::string message =
      cat("error: rank ", rank(), " of ", size(), ": ", what, "; ending every rank\n");
  std::cerr.write(message.data(), static_cast<std::streamsize>(message.size()));
  std::cerr.flush();
  // The message travels to mpirun through Open MPI's output forwarding, which MPI_Abort can
  // overtake: it was lost about once in 40 runs. A moment lets it arrive first.
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::abort(); // MPI_Abort does not return; this satisfies [[noreturn]]
}

double wall_seconds() {
  return MPI_Wtime();
}

} // namespace tessera::distributed
