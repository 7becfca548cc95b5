#include "distributed/FaceStaging.h"

#include "core/Error.h"
#include "distributed/ColourPacking.h"
#include "runtime/ClError.h"

namespace tessera::distributed {

FaceStaging::FaceStaging(cl::CommandQueue queue, std::size_t bytes, Packing packing,
                         bool own_host_memory)
    : queue_(std::move(queue)), bytes_(std::max<std::size_t>(bytes, 1)), packing_(packing) {
  cl_int err = CL_SUCCESS;
  auto context = queue_.getInfo<CL_QUEUE_CONTEXT>();
  if (packing_ == Packing::OnDevice) {
    packed_ = cl::Buffer(context, CL_MEM_READ_WRITE, bytes_, nullptr, &err);
    runtime::check_cl(err, "allocating a device buffer for a halo face");
  }
  if (!own_host_memory)
    return;
  pinned_ = cl::Buffer(context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes_, nullptr, &err);
  runtime::check_cl(err, "allocating pinned host memory for a halo face");
  host_ = static_cast<unsigned char*>(queue_.enqueueMapBuffer(
      pinned_, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes_, nullptr, nullptr, &err));
  runtime::check_cl(err, "mapping pinned host memory for a halo face");
}

FaceStaging::~FaceStaging() {
  if (pinned_()) {
    queue_.enqueueUnmapMemObject(pinned_, host_);
    queue_.finish();
  }
}

void FaceStaging::point_at(unsigned char* host) {
  if (pinned_())
    internal_error("a face's staging pointed at memory of another while it owns its own");
  host_ = host;
}

std::size_t FaceStaging::fitting_bytes(int64_t points, std::size_t element_bytes) const {
  const std::size_t bytes = static_cast<std::size_t>(points) * element_bytes;
  if (bytes > bytes_)
    internal_error(cat("a halo face of ", bytes, " bytes in a staging buffer of ", bytes_));
  return bytes;
}

std::size_t FaceStaging::face_bytes(const Rect& rect, std::size_t element_bytes) const {
  return fitting_bytes(rect.points(), element_bytes);
}

void FaceStaging::download(const cl::Buffer& buffer, const Rect& rect, std::size_t element_bytes,
                           cl::Event* done) {
  const std::size_t bytes = face_bytes(rect, element_bytes);
  if (bytes == 0)
    return;
  if (packing_ == Packing::Transfer || contiguous(rect))
    return read_rect(queue_, buffer, rect, element_bytes, host_, done);
  copy_rect(queue_, buffer, rect, packed_, whole(rect.extent), element_bytes);
  runtime::check_cl(queue_.enqueueReadBuffer(packed_, CL_FALSE, 0, bytes, host_, nullptr, done),
                    "reading a halo face");
}

void FaceStaging::upload(const cl::Buffer& buffer, const Rect& rect, std::size_t element_bytes,
                         cl::Event* done) {
  const std::size_t bytes = face_bytes(rect, element_bytes);
  if (bytes == 0)
    return;
  if (packing_ == Packing::Transfer || contiguous(rect))
    return write_rect(queue_, buffer, rect, element_bytes, host_, done);
  runtime::check_cl(queue_.enqueueWriteBuffer(packed_, CL_FALSE, 0, bytes, host_),
                    "writing a halo face");
  copy_rect(queue_, packed_, whole(rect.extent), buffer, rect, element_bytes);
  // The copy follows the write in the in-order queue: a marker after both says when host() is
  // free again.
  runtime::check_cl(queue_.enqueueMarkerWithWaitList(nullptr, done), "writing a halo face");
}

void FaceStaging::download_colour(ColourPacking& colours, const cl::Buffer& buffer,
                                  const Rect& rect, int origin_parity, int colour,
                                  std::size_t element_bytes, cl::Event* done) {
  if (packing_ != Packing::OnDevice)
    internal_error("a halo face of one colour is packed on the device");
  const std::size_t bytes = fitting_bytes(ColourPacking::packed_points(rect), element_bytes);
  if (bytes == 0)
    return;
  colours.pack(buffer, rect, origin_parity, colour, packed_);
  runtime::check_cl(queue_.enqueueReadBuffer(packed_, CL_FALSE, 0, bytes, host_, nullptr, done),
                    "reading a halo face");
}

void FaceStaging::upload_colour(ColourPacking& colours, const cl::Buffer& buffer, const Rect& rect,
                                int origin_parity, int colour, std::size_t element_bytes,
                                cl::Event* done) {
  if (packing_ != Packing::OnDevice)
    internal_error("a halo face of one colour is unpacked on the device");
  const std::size_t bytes = fitting_bytes(ColourPacking::packed_points(rect), element_bytes);
  if (bytes == 0)
    return;
  runtime::check_cl(queue_.enqueueWriteBuffer(packed_, CL_FALSE, 0, bytes, host_),
                    "writing a halo face");
  colours.unpack(packed_, buffer, rect, origin_parity, colour);
  runtime::check_cl(queue_.enqueueMarkerWithWaitList(nullptr, done), "writing a halo face");
}

} // namespace tessera::distributed
