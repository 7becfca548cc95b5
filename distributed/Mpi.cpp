#include "distributed/Mpi.h"

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <mpi.h>
#include <thread>

#include "core/Error.h"

namespace tessera::distributed {

namespace {

void check(int code, const char* what) {
  if (code == MPI_SUCCESS)
    return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(code, text, &length);
  throw Error(cat("MPI: ", what, " failed: ", std::string(text, length)));
}

} // namespace

MpiRuntime::MpiRuntime() {
  int running = 0;
  MPI_Initialized(&running);
  if (running)
    return;
  int provided = 0;
  check(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided), "MPI_Init_thread");
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

struct Communicator::Impl {
  MPI_Comm comm = MPI_COMM_WORLD;
  bool owned = false;
  ~Impl() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owned && !finalized)
      MPI_Comm_free(&comm);
  }
};

struct Requests::Impl {
  MPI_Comm comm;
  std::vector<MPI_Request> requests;
};

Requests::Requests(const Communicator& comm)
    : impl_(std::make_unique<Impl>(Impl{comm.impl_->comm, {}})) {}
Requests::~Requests() = default;
Requests::Requests(Requests&&) noexcept = default;

void Requests::send(const void* data, std::size_t bytes, int to, int tag) {
  impl_->requests.emplace_back();
  check(MPI_Isend(data, static_cast<int>(bytes), MPI_BYTE, to, tag, impl_->comm,
                  &impl_->requests.back()),
        "MPI_Isend");
}

void Requests::receive(void* data, std::size_t bytes, int from, int tag) {
  impl_->requests.emplace_back();
  check(MPI_Irecv(data, static_cast<int>(bytes), MPI_BYTE, from, tag, impl_->comm,
                  &impl_->requests.back()),
        "MPI_Irecv");
}

void Requests::wait() {
  if (impl_->requests.empty())
    return;
  check(MPI_Waitall(static_cast<int>(impl_->requests.size()), impl_->requests.data(),
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
  check(MPI_Dims_create(size(), dims, ranks.data()), "MPI_Dims_create");
  return ranks;
}

Communicator Communicator::cartesian(const std::vector<int>& ranks, bool periodic) const {
  std::vector<int> periods(ranks.size(), periodic ? 1 : 0);
  Communicator c;
  c.impl_ = std::make_shared<Impl>();
  check(MPI_Cart_create(impl_->comm, static_cast<int>(ranks.size()), ranks.data(), periods.data(),
                        0, &c.impl_->comm),
        "MPI_Cart_create");
  c.impl_->owned = true;
  return c;
}

int Communicator::neighbour(int dim, int side) const {
  int low = MPI_PROC_NULL, high = MPI_PROC_NULL;
  check(MPI_Cart_shift(impl_->comm, dim, 1, &low, &high), "MPI_Cart_shift");
  int n = side == 0 ? low : high;
  return n == MPI_PROC_NULL ? -1 : n;
}

int Communicator::host_rank() const {
  MPI_Comm host;
  check(MPI_Comm_split_type(impl_->comm, MPI_COMM_TYPE_SHARED, rank(), MPI_INFO_NULL, &host),
        "MPI_Comm_split_type");
  int r = 0;
  MPI_Comm_rank(host, &r);
  MPI_Comm_free(&host);
  return r;
}

uint64_t Communicator::sum(uint64_t value) const {
  uint64_t total = 0;
  check(MPI_Allreduce(&value, &total, 1, MPI_UINT64_T, MPI_SUM, impl_->comm), "MPI_Allreduce");
  return total;
}

double Communicator::max(double value) const {
  double result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_MAX, impl_->comm), "MPI_Allreduce");
  return result;
}

double Communicator::sum(double value) const {
  double result = 0;
  check(MPI_Allreduce(&value, &result, 1, MPI_DOUBLE, MPI_SUM, impl_->comm), "MPI_Allreduce");
  return result;
}

void Communicator::barrier() const {
  check(MPI_Barrier(impl_->comm), "MPI_Barrier");
}

std::vector<std::vector<unsigned char>>
Communicator::gather(const std::vector<unsigned char>& mine) const {
  int n = size();
  int count = static_cast<int>(mine.size());
  std::vector<int> counts(n), displs(n);
  check(MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, impl_->comm), "MPI_Gather");
  std::vector<unsigned char> all;
  if (rank() == 0) {
    int total = 0;
    for (int i = 0; i < n; ++i) {
      displs[i] = total;
      total += counts[i];
    }
    all.resize(total);
  }
  check(MPI_Gatherv(mine.data(), count, MPI_BYTE, all.data(), counts.data(), displs.data(),
                    MPI_BYTE, 0, impl_->comm),
        "MPI_Gatherv");
  std::vector<std::vector<unsigned char>> parts;
  if (rank() == 0)
    for (int i = 0; i < n; ++i)
      parts.emplace_back(all.begin() + displs[i], all.begin() + displs[i] + counts[i]);
  return parts;
}

void Communicator::broadcast(std::vector<unsigned char>& data) const {
  uint64_t bytes = data.size();
  check(MPI_Bcast(&bytes, 1, MPI_UINT64_T, 0, impl_->comm), "MPI_Bcast");
  data.resize(bytes);
  check(MPI_Bcast(data.data(), static_cast<int>(bytes), MPI_BYTE, 0, impl_->comm), "MPI_Bcast");
}

void Communicator::fail(const std::string& what) const {
  std::cerr << "error: rank " << rank() << " of " << size() << ": " << what
            << "; ending every rank\n"
            << std::flush;
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
