// Halo faces between ranks of one host through memory both map (HostWindow) instead of MPI
// messages: a face is read from its device straight into a slot of the sender's segment, and the
// receiving device is written straight from there. Two DMA copies remain; MPI's copy between the
// processes goes (on a host of two H200, a 1 MiB face: 30 us each way between a device and
// pinned memory, 222 us through Open MPI's shared-memory transport; bench/mpi/face_exchange).
//
// Counters beside each slot order the two ranks without messages: the sender publishes the
// count of the face's exchanges once the slot holds it, the receiver releases that count once its
// device has the face. Each face has two slots, used in turn, so the next exchange's read need
// not wait for the last one's release.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "distributed/HostWindow.h"
#include "runtime/OpenCL.h"

namespace tessera::distributed {

struct Face;

class SharedFaces {
public:
  // Collective over `comm` (the ranks of the exchange, in the same order on each): `bytes[j]`
  // is the most that face j carries. Null where the shared memory could not be had on some rank
  // (the exchange then sends messages). A face whose neighbour is on another host is not shared.
  static std::unique_ptr<SharedFaces> make(const Communicator& comm, const std::vector<Face>& faces,
                                           const std::vector<std::size_t>& bytes);
  ~SharedFaces();

  // Whether face j travels through the shared memory.
  bool shared(std::size_t face) const { return channels_.at(face).mine != nullptr; }

  // For the k-th exchange of face j (k = 1, 2, ...), on the sending side: wait until the slot
  // is free, fill it, publish it.
  void wait_until_free(std::size_t face, uint64_t k) const;
  unsigned char* send_slot(std::size_t face, uint64_t k) const;
  void publish(std::size_t face, uint64_t k) const;
  // On the receiving side: wait until the neighbour published it, read it, release it.
  void wait_until_published(std::size_t face, uint64_t k) const;
  unsigned char* receive_slot(std::size_t face, uint64_t k) const;
  void release(std::size_t face, uint64_t k) const;

  // OpenCL buffers over the shared memory in `context` (CL_MEM_USE_HOST_PTR): NVIDIA's driver
  // pins the memory such a buffer wraps, which makes the devices' transfers to and from the
  // slots DMA (without it, 2.6 GB/s for a 1 MiB face instead of 17 end to end: pageable copies).
  void register_in(const cl::Context& context);

private:
  // Where face j's slots are: in this rank's segment (sent) and the neighbour's (received).
  struct Channel {
    unsigned char* mine = nullptr;    // this rank's channel for the face, null if not shared
    unsigned char* theirs = nullptr;  // the neighbour's channel whose face lands here
    std::size_t slot_bytes = 0;       // of this rank's slots
    std::size_t their_slot_bytes = 0; // of the neighbour's (its face may be larger)
  };
  SharedFaces() = default;
  std::unique_ptr<HostWindow> window_;
  std::vector<Channel> channels_;
  std::vector<cl::Buffer> registered_;
  std::vector<HostWindow::Segment> segments_; // the host's, to register
};

} // namespace tessera::distributed
