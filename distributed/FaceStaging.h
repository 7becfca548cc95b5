// Where a halo face waits between the device and MPI: page-locked (pinned) host memory, which
// MPI sends from and receives into, filled from the device in one of two ways:
// - Packing::Transfer: a rectangle transfer between the device buffer and the host memory (the
//   copy engines move it while kernels run: the sweep exchanges during its interior's steps);
// - Packing::OnDevice: a device-side rectangle copy into a contiguous device buffer, then one
//   contiguous transfer (for exchanges between kernels, as in the multigrid cycle; a device copy
//   waits for the kernels before it on NVIDIA, so it would serialise the sweep's overlap: its
//   exchange took 2.3x as long with it on 2 H200s, 1024^3 with k = 1).
// A face that is one contiguous run of its buffer (whole rows, as for blocks split along the
// outermost dimension) moves directly by either packing.
// Reading a 512^3 f64 block's own points to pageable memory by rectangle moved 1.7 GB/s on an
// H200 (rows of 4 KiB), which is why the norms are computed on the device.
#pragma once

#include <cstddef>

#include "distributed/Rect.h"

namespace tessera::distributed {
class ColourPacking;
}

namespace tessera::distributed {

class FaceStaging {
public:
  enum class Packing { Transfer, OnDevice };
  // Buffers for faces of up to `bytes` bytes in the context of `queue`. With `own_host_memory`
  // false the host side is memory another object keeps (SharedFaces): host() is null until
  // point_at().
  FaceStaging(cl::CommandQueue queue, std::size_t bytes, Packing packing,
              bool own_host_memory = true);
  ~FaceStaging();
  FaceStaging(const FaceStaging&) = delete;
  FaceStaging& operator=(const FaceStaging&) = delete;

  // The pinned host memory (valid for the object's lifetime).
  unsigned char* host() { return host_; }
  // The host memory of the next transfer, where the object owns none (at least the bytes given).
  void point_at(unsigned char* host);
  // Enqueued after the queue's earlier commands (it is in order): the region `rect` of
  // `buffer` into host(), packed; `done` is set to the event after which host() holds it.
  void download(const cl::Buffer& buffer, const Rect& rect, std::size_t element_bytes,
                cl::Event* done);
  // Enqueued: host(), packed, into the region `rect` of `buffer`; `done` is set to the event
  // after which host() may change again. Later commands of the queue see the region written.
  void upload(const cl::Buffer& buffer, const Rect& rect, std::size_t element_bytes,
              cl::Event* done);

  // The same for the points of one colour of `rect` (ColourPacking.h: `colours` enqueues on this
  // staging's queue), packed on the device; Packing::OnDevice only.
  void download_colour(ColourPacking& colours, const cl::Buffer& buffer, const Rect& rect,
                       int origin_parity, int colour, std::size_t element_bytes, cl::Event* done);
  void upload_colour(ColourPacking& colours, const cl::Buffer& buffer, const Rect& rect,
                     int origin_parity, int colour, std::size_t element_bytes, cl::Event* done);

private:
  // The bytes of `points` elements, which must fit the staging buffers.
  std::size_t fitting_bytes(int64_t points, std::size_t element_bytes) const;
  // The bytes of the region `rect`, which must fit the staging buffers.
  std::size_t face_bytes(const Rect& rect, std::size_t element_bytes) const;

  cl::CommandQueue queue_;
  std::size_t bytes_;
  Packing packing_;
  cl::Buffer packed_, pinned_;
  unsigned char* host_ = nullptr;
};

} // namespace tessera::distributed
