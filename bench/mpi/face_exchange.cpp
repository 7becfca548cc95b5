// face_exchange: how fast a halo face travels between the devices of two ranks of one host, by
// each way a face can take (issue 36: the distributed solver's faces moved at about 3 GB/s end to
// end on two H200, and which of read, MPI and write costs it was not known).
//
//   mpirun -np 2 face_exchange [--device SPEC] [--repeats N] [--sizes KiB,KiB,...]
//
// Every rank fills a device buffer with its own pattern; each way moves it to the other rank's
// device buffer, which is checked against the sender's pattern after every way (a way that
// delivers wrong bytes prints FAILED). Printed per face size: the median over the repeats of the
// slower rank's time, in microseconds and GB/s of one face:
//   read      device -> pinned host memory (CL_MEM_ALLOC_HOST_PTR, mapped)
//   write     pinned host memory -> device
//   mpi       pinned -> pinned between the ranks (both directions at once, as an exchange)
//   chain     read, MPI, write: the solver's exchange of a face that is one run of its buffer
//   pieces4   the chain in 4 pieces: a piece is sent as soon as it is read, written when it lands
//   shm       read into an MPI-3 shared window the other rank sees, a barrier, the other rank
//             writes it to its device from there: no MPI copy, but pageable memory to the driver
//   shm-reg   the same with the window also wrapped by a CL_MEM_USE_HOST_PTR buffer on each
//             rank (where the driver pins the memory it wraps, the transfers become DMA)
// Prints ratios only against the same run's numbers; asserts nothing but the bytes delivered.
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "distributed/DeviceChoice.h"
#include "runtime/OpenCL.h"

namespace {

struct Options {
  std::string device = "gpu";
  int repeats = 20;
  std::vector<std::size_t> sizes{64 << 10, 256 << 10, 1 << 20, 2 << 20, 4 << 20, 16 << 20};
};

void usage(int rank) {
  if (rank == 0)
    std::fprintf(stderr, "usage: mpirun -np 2 face_exchange [--device SPEC] [--repeats N] "
                         "[--sizes KiB,KiB,...]\n");
}

bool parse(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (i + 1 >= argc)
      return false;
    std::string v = argv[++i];
    try {
      if (a == "--device") {
        o.device = v;
      } else if (a == "--repeats") {
        o.repeats = std::stoi(v);
      } else if (a == "--sizes") {
        o.sizes.clear();
        for (std::size_t p = 0; p < v.size();) {
          std::size_t q = v.find(',', p);
          o.sizes.push_back(std::stoul(v.substr(p, q - p)) << 10);
          p = q == std::string::npos ? v.size() : q + 1;
        }
      } else {
        return false;
      }
    } catch (const std::exception&) {
      return false;
    }
  }
  return o.repeats > 0 && !o.sizes.empty();
}

void check(cl_int err, const char* what) {
  if (err != CL_SUCCESS) {
    std::fprintf(stderr, "error: %s: OpenCL error %d\n", what, err);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
}

// The pattern of rank r's face: a word that names the rank and the position.
std::vector<uint32_t> pattern(int rank, std::size_t bytes) {
  std::vector<uint32_t> words(bytes / 4);
  for (std::size_t i = 0; i < words.size(); ++i)
    words[i] = static_cast<uint32_t>(rank + 1) * 0x9E3779B1u ^ static_cast<uint32_t>(i);
  return words;
}

struct Rank {
  int rank = 0, peer = 0;
  cl::Context context;
  cl::CommandQueue queue;
  cl::Buffer source, target, pinned_send, pinned_receive;
  unsigned char *send = nullptr, *receive = nullptr;
  unsigned char *window_mine = nullptr, *window_peer = nullptr;
  cl::Buffer registered_mine, registered_peer;
  MPI_Win window = MPI_WIN_NULL;
};

cl::Buffer device_buffer(Rank& r, std::size_t bytes) {
  cl_int err = CL_SUCCESS;
  cl::Buffer b(r.context, CL_MEM_READ_WRITE, bytes, nullptr, &err);
  check(err, "allocating a device buffer");
  return b;
}

unsigned char* pinned(Rank& r, std::size_t bytes, cl::Buffer& buffer) {
  cl_int err = CL_SUCCESS;
  buffer = cl::Buffer(r.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &err);
  check(err, "allocating pinned memory");
  void* p = r.queue.enqueueMapBuffer(buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, nullptr,
                                     nullptr, &err);
  check(err, "mapping pinned memory");
  return static_cast<unsigned char*>(p);
}

void set_up(Rank& r, std::size_t bytes) {
  r.source = device_buffer(r, bytes);
  r.target = device_buffer(r, bytes);
  r.send = pinned(r, bytes, r.pinned_send);
  r.receive = pinned(r, bytes, r.pinned_receive);
  auto words = pattern(r.rank, bytes);
  check(r.queue.enqueueWriteBuffer(r.source, CL_TRUE, 0, bytes, words.data()), "filling");
  // The shared window: each rank's segment is where its face waits for the other rank.
  unsigned char* base = nullptr;
  MPI_Win_allocate_shared(static_cast<MPI_Aint>(bytes), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base,
                          &r.window);
  r.window_mine = base;
  MPI_Aint size = 0;
  int unit = 0;
  MPI_Win_shared_query(r.window, r.peer, &size, &unit, &r.window_peer);
}

void tear_down(Rank& r, std::size_t bytes) {
  (void)bytes;
  r.queue.enqueueUnmapMemObject(r.pinned_send, r.send);
  r.queue.enqueueUnmapMemObject(r.pinned_receive, r.receive);
  r.queue.finish();
  r.registered_mine = r.registered_peer = cl::Buffer();
  MPI_Win_free(&r.window);
}

bool delivered(Rank& r, std::size_t bytes) {
  std::vector<uint32_t> got(bytes / 4);
  check(r.queue.enqueueReadBuffer(r.target, CL_TRUE, 0, bytes, got.data()), "checking");
  int ok = got == pattern(r.peer, bytes) ? 1 : 0, all = 0;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  std::vector<uint32_t> zero(bytes / 4, 0);
  check(r.queue.enqueueWriteBuffer(r.target, CL_TRUE, 0, bytes, zero.data()), "clearing");
  return all == 1;
}

void exchange_pinned(Rank& r, std::size_t bytes) {
  MPI_Request q[2];
  MPI_Irecv(r.receive, static_cast<int>(bytes), MPI_BYTE, r.peer, 0, MPI_COMM_WORLD, &q[0]);
  MPI_Isend(r.send, static_cast<int>(bytes), MPI_BYTE, r.peer, 0, MPI_COMM_WORLD, &q[1]);
  MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
}

void chain_in_pieces(Rank& r, std::size_t bytes, int count) {
  const std::size_t piece = (bytes / 4 + count - 1) / count * 4;
  std::vector<MPI_Request> arrive(count), leave(count);
  std::vector<cl::Event> read(count), written(count);
  for (int p = 0; p < count; ++p) {
    std::size_t at = p * piece, n = std::min(piece, bytes - at);
    MPI_Irecv(r.receive + at, static_cast<int>(n), MPI_BYTE, r.peer, p, MPI_COMM_WORLD, &arrive[p]);
    check(r.queue.enqueueReadBuffer(r.source, CL_FALSE, at, n, r.send + at, nullptr, &read[p]),
          "reading a piece");
  }
  r.queue.flush();
  for (int p = 0; p < count; ++p) {
    std::size_t at = p * piece, n = std::min(piece, bytes - at);
    read[p].wait();
    MPI_Isend(r.send + at, static_cast<int>(n), MPI_BYTE, r.peer, p, MPI_COMM_WORLD, &leave[p]);
  }
  for (int p = 0; p < count; ++p) {
    std::size_t at = p * piece, n = std::min(piece, bytes - at);
    MPI_Wait(&arrive[p], MPI_STATUS_IGNORE);
    check(
        r.queue.enqueueWriteBuffer(r.target, CL_FALSE, at, n, r.receive + at, nullptr, &written[p]),
        "writing a piece");
    r.queue.flush();
  }
  cl::WaitForEvents(written);
  MPI_Waitall(count, leave.data(), MPI_STATUSES_IGNORE);
}

void through_window(Rank& r, std::size_t bytes) {
  check(r.queue.enqueueReadBuffer(r.source, CL_TRUE, 0, bytes, r.window_mine), "reading");
  MPI_Win_sync(r.window);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_sync(r.window);
  check(r.queue.enqueueWriteBuffer(r.target, CL_TRUE, 0, bytes, r.window_peer), "writing");
  MPI_Barrier(MPI_COMM_WORLD); // the window's segment may be read into again
}

// The median over the repeats of the slower rank's microseconds.
double time_us(int repeats, const std::function<void()>& way) {
  std::vector<double> us;
  way(); // the first run pays for first-touch mappings
  for (int i = 0; i < repeats; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    way();
    double mine = (MPI_Wtime() - t0) * 1e6, slower = 0;
    MPI_Allreduce(&mine, &slower, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    us.push_back(slower);
  }
  std::sort(us.begin(), us.end());
  return us[us.size() / 2];
}

void measure(Rank& r, const Options& o, std::size_t bytes) {
  set_up(r, bytes);
  struct Way {
    const char* name;
    std::function<void()> run;
    bool delivers;
  };
  std::vector<Way> ways{
      {"read", [&] { r.queue.enqueueReadBuffer(r.source, CL_TRUE, 0, bytes, r.send); }, false},
      {"write", [&] { r.queue.enqueueWriteBuffer(r.target, CL_TRUE, 0, bytes, r.send); }, false},
      {"mpi", [&] { exchange_pinned(r, bytes); }, false},
      {"chain",
       [&] {
         r.queue.enqueueReadBuffer(r.source, CL_TRUE, 0, bytes, r.send);
         exchange_pinned(r, bytes);
         r.queue.enqueueWriteBuffer(r.target, CL_TRUE, 0, bytes, r.receive);
       },
       true},
      {"pieces4", [&] { chain_in_pieces(r, bytes, 4); }, true},
      {"shm", [&] { through_window(r, bytes); }, true},
  };
  std::vector<double> us;
  for (auto& w : ways) {
    us.push_back(time_us(o.repeats, w.run));
    if (w.delivers && !delivered(r, bytes) && r.rank == 0)
      std::printf("FAILED: %s delivered wrong bytes\n", w.name);
  }
  // Both segments of the window wrapped by USE_HOST_PTR buffers on each rank.
  cl_int err = CL_SUCCESS;
  r.registered_mine =
      cl::Buffer(r.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, r.window_mine, &err);
  check(err, "wrapping the shared window");
  r.registered_peer =
      cl::Buffer(r.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, r.window_peer, &err);
  check(err, "wrapping the shared window");
  ways.push_back({"shm-reg", [&] { through_window(r, bytes); }, true});
  us.push_back(time_us(o.repeats, ways.back().run));
  if (!delivered(r, bytes) && r.rank == 0)
    std::printf("FAILED: shm-reg delivered wrong bytes\n");
  if (r.rank == 0) {
    std::printf("%8zu KiB", bytes >> 10);
    for (std::size_t i = 0; i < ways.size(); ++i)
      std::printf("  %s %7.1f us %5.1f GB/s", ways[i].name, us[i], bytes / us[i] / 1e3);
    std::printf("\n");
    std::fflush(stdout);
  }
  tear_down(r, bytes);
}

} // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::string(argv[i]) == "--help") {
      usage(0);
      return 2;
    }
  MPI_Init(&argc, &argv);
  Rank r;
  int size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  Options o;
  if (!parse(argc, argv, o) || size != 2) {
    usage(r.rank);
    if (r.rank == 0 && size != 2)
      std::fprintf(stderr, "error: face_exchange runs on 2 ranks (mpirun -np 2), not %d\n", size);
    MPI_Finalize();
    return 2;
  }
  r.peer = 1 - r.rank;
  MPI_Comm host;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  int host_rank = 0, host_size = 0;
  MPI_Comm_rank(host, &host_rank);
  MPI_Comm_size(host, &host_size);
  if (host_size != 2) {
    if (r.rank == 0)
      std::fprintf(stderr, "error: the two ranks must share a host (a shared window)\n");
    MPI_Finalize();
    return 2;
  }
  try {
    auto device = tessera::distributed::device_for_rank(o.device, host_rank);
    r.context = cl::Context(device.device);
    r.queue = cl::CommandQueue(r.context, device.device);
    std::printf("rank %d: %s\n", r.rank, device.name.c_str());
    std::fflush(stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: rank %d: %s\n", r.rank, e.what());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  for (std::size_t bytes : o.sizes)
    measure(r, o, bytes);
  MPI_Finalize();
  return 0;
}
