// Halo faces of one red-black colour. After a half-sweep only the points of the colour it
// updated have changed, so the exchange before the next half-sweep (or the residual) needs those
// alone: half the bytes of the face. Two small kernels move the points of one colour of a region
// of a box buffer into a contiguous device buffer and back.
//
// The packed form of a region keeps its rows (all dimensions but one) and, per row, one slot for
// each pair of neighbouring points (2k, 2k+1) along the remaining dimension, the innermost one
// longer than 1 point: the point of the colour, exactly one per whole pair (an odd row's last
// slot may be empty). A face
// and its mirror on the neighbouring rank are the same global points, so both ranks pack them
// alike; the colour is the parity of the global index sum, known from the box's first point.
#pragma once

#include <cstddef>
#include <cstdint>

#include "distributed/Rect.h"
#include "runtime/Kernel.h"

namespace tessera::runtime {
class Session;
}

namespace tessera::distributed {

class ColourPacking {
public:
  // Kernels for elements of `element_bytes` (4 or 8), built now on the session's device.
  ColourPacking(runtime::Session& session, std::size_t element_bytes);

  // Elements of the packed form of `rect` (rows times half the paired extent, rounded up).
  static int64_t packed_points(const Rect& rect);

  // Enqueued on the session's queue: the points of `rect` of global colour `colour` into
  // `packed` (pack), or from `packed` back into `rect` (unpack; the other colour's points stay
  // as they are). `origin_parity`: the global parity of the box's point 0.
  void pack(const cl::Buffer& box, const Rect& rect, int origin_parity, int colour,
            const cl::Buffer& packed);
  void unpack(const cl::Buffer& packed, const cl::Buffer& box, const Rect& rect, int origin_parity,
              int colour);

private:
  void run(runtime::Kernel& kernel, const cl::Buffer& box, const Rect& rect, int origin_parity,
           int colour, const cl::Buffer& packed);

  runtime::Session* session_;
  runtime::Kernel pack_, unpack_;
};

} // namespace tessera::distributed
