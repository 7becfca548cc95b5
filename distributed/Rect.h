// Rectangular regions of row-major device buffers (1 to 3 dimensions, outermost first) moved
// with OpenCL's rectangle commands: halo faces read into and written from packed host buffers,
// boxes copied between buffers. OpenCL's x is the innermost (contiguous) dimension.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "runtime/OpenCL.h"

namespace tessera::distributed {

// A region of a buffer whose array has extents `array` (outermost first).
struct Rect {
  std::vector<int64_t> array;
  std::vector<int64_t> offset, extent;
  int64_t points() const;
};

struct Block;

// The whole of a packed array of these extents (a region copied out of a larger one).
Rect whole(const std::vector<int64_t>& extent);
// A rank's own points within its extended block.
Rect own_rect(const Block& b);

// The region into / from a packed host buffer of points() elements: blocking, or enqueued
// with `done` set to the transfer's event.
void read_rect(cl::CommandQueue& queue, const cl::Buffer& buffer, const Rect& rect,
               std::size_t element_bytes, void* host, cl::Event* done = nullptr);
void write_rect(cl::CommandQueue& queue, const cl::Buffer& buffer, const Rect& rect,
                std::size_t element_bytes, const void* host, cl::Event* done = nullptr);
// The same region with the inner dimensions it covers whole folded into their outer ones (fewer,
// longer rows; a region of whole rows of a 3-D array becomes 1-D).
Rect merge_whole_dims(const Rect& r);
// The region as one contiguous run of its buffer, when it is one (every dimension but the
// innermost of its merged form has extent 1): its first element's offset and its length, in
// units of `element_bytes`. OpenCL's rectangle commands cost a transfer per row on some drivers
// (NVIDIA: about 5 us per 4 KiB row), so such regions move as plain buffer ranges.
struct Run {
  std::size_t offset = 0, bytes = 0;
};
std::optional<Run> contiguous_run(const Rect& r, std::size_t element_bytes);
// Whether the region is one contiguous run of its buffer (it then moves as a plain range: OpenCL's
// rectangle commands cost a transfer per row on some drivers).
bool contiguous(const Rect& r);
// The region cut into `count` pieces (fewer when it is thinner) along its outermost dimension
// longer than 1, in order: each piece's packed points follow the previous piece's.
std::vector<Rect> pieces(const Rect& rect, int64_t count);
// Enqueued (not waited for): the region `from` of src to the region `to` of dst (same extents).
void copy_rect(cl::CommandQueue& queue, const cl::Buffer& src, const Rect& from,
               const cl::Buffer& dst, const Rect& to, std::size_t element_bytes);

} // namespace tessera::distributed
