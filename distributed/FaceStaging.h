// Where a halo face waits between the device and MPI: packed into a contiguous device buffer by
// a device-side rectangle copy, then moved in one contiguous transfer to or from page-locked
// (pinned) host memory, which MPI sends from and receives into. A rectangle read straight into
// pageable memory moves the face row by row: a 512^3 f64 block's rows of 4 KiB crossed at about
// 1.7 GB/s on an H200, the packed transfer from pinned memory at the bus's speed.
#pragma once

#include <cstddef>

#include "distributed/Rect.h"

namespace tessera::distributed {

class FaceStaging {
public:
  // Buffers for faces of up to `bytes` bytes in the context of `queue`.
  FaceStaging(cl::CommandQueue queue, std::size_t bytes);
  ~FaceStaging();
  FaceStaging(const FaceStaging&) = delete;
  FaceStaging& operator=(const FaceStaging&) = delete;

  // The pinned host memory (valid for the object's lifetime).
  unsigned char* host() { return host_; }
  // Blocking: the region `rect` of `buffer` into host(), packed.
  void download(const cl::Buffer& buffer, const Rect& rect, std::size_t element_bytes);
  // Blocking: host(), packed, into the region `rect` of `buffer`.
  void upload(const cl::Buffer& buffer, const Rect& rect, std::size_t element_bytes);

private:
  cl::CommandQueue queue_;
  std::size_t bytes_;
  cl::Buffer packed_, pinned_;
  unsigned char* host_ = nullptr;
};

} // namespace tessera::distributed
