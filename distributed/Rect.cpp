#include "distributed/Rect.h"

#include <algorithm>

#include <array>
#include <optional>

#include "core/Error.h"
#include "distributed/BlockGrid.h"
#include "runtime/ClError.h"

namespace tessera::distributed {

int64_t Rect::points() const {
  int64_t p = 1;
  for (auto e : extent)
    p *= e;
  return p;
}

Rect whole(const std::vector<int64_t>& extent) {
  return Rect{extent, std::vector<int64_t>(extent.size(), 0), extent};
}

Rect own_rect(const Block& b) {
  return {b.extended(), b.halo_lo, b.extent};
}

namespace {

// OpenCL's view of a region: origin and region in (bytes, rows, slices), the pitches in bytes.
struct ClRect {
  cl::array<cl::size_type, 3> origin{0, 0, 0}, region{1, 1, 1};
  cl::size_type row_pitch = 0, slice_pitch = 0;
};

ClRect cl_rect(const Rect& r, std::size_t element_bytes) {
  std::size_t dims = r.array.size();
  if (dims < 1 || dims > 3 || r.offset.size() != dims || r.extent.size() != dims)
    internal_error(cat("a rectangle needs 1 to 3 matching dimensions, got ", dims));
  // Dimension d (outermost first) is OpenCL's axis dims - 1 - d.
  std::array<int64_t, 3> array{1, 1, 1}, offset{0, 0, 0}, extent{1, 1, 1};
  for (std::size_t d = 0; d < dims; ++d) {
    std::size_t axis = dims - 1 - d;
    array[axis] = r.array[d];
    offset[axis] = r.offset[d];
    extent[axis] = r.extent[d];
    if (r.offset[d] < 0 || r.extent[d] < 0 || r.offset[d] + r.extent[d] > r.array[d])
      internal_error("a rectangle outside its array");
  }
  ClRect c;
  auto eb = static_cast<cl::size_type>(element_bytes);
  c.origin = {static_cast<cl::size_type>(offset[0]) * eb, static_cast<cl::size_type>(offset[1]),
              static_cast<cl::size_type>(offset[2])};
  c.region = {static_cast<cl::size_type>(extent[0]) * eb, static_cast<cl::size_type>(extent[1]),
              static_cast<cl::size_type>(extent[2])};
  c.row_pitch = static_cast<cl::size_type>(array[0]) * eb;
  c.slice_pitch = c.row_pitch * static_cast<cl::size_type>(array[1]);
  return c;
}

// The packed host side of a transfer: rows of the region's own width.
ClRect packed(const ClRect& device) {
  ClRect h;
  h.region = device.region;
  h.row_pitch = device.region[0];
  h.slice_pitch = device.region[0] * device.region[1];
  return h;
}

} // namespace

Rect merge_whole_dims(const Rect& r) {
  Rect m = r;
  // An inner dimension the region covers whole folds into its outer one: the region's rows
  // become longer and fewer (the same elements in the same order).
  while (m.array.size() > 1) {
    const std::size_t d = m.array.size() - 1;
    if (m.offset[d] != 0 || m.extent[d] != m.array[d])
      break;
    m.array[d - 1] *= m.array[d];
    m.offset[d - 1] *= m.array[d];
    m.extent[d - 1] *= m.array[d];
    m.array.pop_back();
    m.offset.pop_back();
    m.extent.pop_back();
  }
  return m;
}

std::optional<Run> contiguous_run(const Rect& r, std::size_t element_bytes) {
  const Rect m = merge_whole_dims(r);
  int64_t linear = 0;
  for (std::size_t d = 0; d < m.array.size(); ++d) {
    if (d + 1 < m.array.size() && m.extent[d] != 1)
      return std::nullopt;
    linear = linear * m.array[d] + m.offset[d];
  }
  return Run{static_cast<std::size_t>(linear) * element_bytes,
             static_cast<std::size_t>(r.points()) * element_bytes};
}

bool contiguous(const Rect& r) {
  return contiguous_run(r, 1).has_value();
}

void read_rect(cl::CommandQueue& queue, const cl::Buffer& buffer, const Rect& rect,
               std::size_t element_bytes, void* host, cl::Event* done) {
  if (rect.points() == 0)
    return;
  if (auto run = contiguous_run(rect, element_bytes)) {
    runtime::check_cl(queue.enqueueReadBuffer(buffer, done ? CL_FALSE : CL_TRUE, run->offset,
                                              run->bytes, host, nullptr, done),
                      "reading a halo face");
    return;
  }
  ClRect d = cl_rect(rect, element_bytes), h = packed(d);
  runtime::check_cl(queue.enqueueReadBufferRect(buffer, done ? CL_FALSE : CL_TRUE, d.origin,
                                                h.origin, d.region, d.row_pitch, d.slice_pitch,
                                                h.row_pitch, h.slice_pitch, host, nullptr, done),
                    "reading a halo face");
}

void write_rect(cl::CommandQueue& queue, const cl::Buffer& buffer, const Rect& rect,
                std::size_t element_bytes, const void* host, cl::Event* done) {
  if (rect.points() == 0)
    return;
  if (auto run = contiguous_run(rect, element_bytes)) {
    runtime::check_cl(queue.enqueueWriteBuffer(buffer, done ? CL_FALSE : CL_TRUE, run->offset,
                                               run->bytes, host, nullptr, done),
                      "writing a halo face");
    return;
  }
  ClRect d = cl_rect(rect, element_bytes), h = packed(d);
  runtime::check_cl(queue.enqueueWriteBufferRect(buffer, done ? CL_FALSE : CL_TRUE, d.origin,
                                                 h.origin, d.region, d.row_pitch, d.slice_pitch,
                                                 h.row_pitch, h.slice_pitch, host, nullptr, done),
                    "writing a halo face");
}

std::vector<Rect> pieces(const Rect& rect, int64_t count) {
  std::size_t q = 0; // the outermost dimension longer than 1: pieces along it are contiguous
  while (q + 1 < rect.extent.size() && rect.extent[q] <= 1)
    ++q;
  const int64_t n = rect.extent.empty() ? 0 : rect.extent[q];
  count = std::clamp<int64_t>(count, 1, std::max<int64_t>(n, 1));
  std::vector<Rect> out;
  for (int64_t p = 0; p < count; ++p) {
    Rect piece = rect;
    const int64_t lo = n * p / count, hi = n * (p + 1) / count;
    piece.offset[q] += lo;
    piece.extent[q] = hi - lo;
    out.push_back(piece);
  }
  return out;
}

void copy_rect(cl::CommandQueue& queue, const cl::Buffer& src, const Rect& from,
               const cl::Buffer& dst, const Rect& to, std::size_t element_bytes) {
  if (from.extent != to.extent)
    internal_error("copy_rect: regions of different extents");
  if (from.points() == 0)
    return;
  auto source = contiguous_run(from, element_bytes), target = contiguous_run(to, element_bytes);
  if (source && target) {
    runtime::check_cl(
        queue.enqueueCopyBuffer(src, dst, source->offset, target->offset, source->bytes),
        "copying a box");
    return;
  }
  ClRect s = cl_rect(from, element_bytes), d = cl_rect(to, element_bytes);
  runtime::check_cl(queue.enqueueCopyBufferRect(src, dst, s.origin, d.origin, s.region, s.row_pitch,
                                                s.slice_pitch, d.row_pitch, d.slice_pitch),
                    "copying a box");
}

} // namespace tessera::distributed
