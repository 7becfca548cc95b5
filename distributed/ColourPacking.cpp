#include "distributed/ColourPacking.h"

#include <array>
#include <string>
#include <vector>

#include "core/Error.h"
#include "runtime/Launch.h"
#include "runtime/Session.h"

namespace tessera::distributed {

namespace {

// A work-item per slot of the packed form: (slot k, row b, row a). The pair (2k, 2k+1) lies
// along the region's paired dimension; of the two, the point whose global index sum has the
// colour's parity.
constexpr const char* kSource = R"CL(
#define SLOT_POINT                                                                  \
  const long k = get_global_id(0), b = get_global_id(1), a = get_global_id(2);      \
  const long x = 2 * k + ((colour - parity - (int)((a + b) & 1) + 4) & 1);           \
  if (x >= ex)                                                                     \
    return;                                                                        \
  const long slot = (a * eb + b) * ((ex + 1) / 2) + k;                              \
  const long point = base + a * sa + b * sb + x * sx;

kernel void pack_colour(global const T* box, global T* packed, long base, long sa, long sb,
                        long sx, long eb, long ex, int parity, int colour) {
  SLOT_POINT
  packed[slot] = box[point];
}

kernel void unpack_colour(global T* box, global const T* packed, long base, long sa, long sb,
                          long sx, long eb, long ex, int parity, int colour) {
  SLOT_POINT
  box[point] = packed[slot];
}
)CL";

// The region as rows (a, b) of pairs along x: x is its innermost dimension longer than 1 (so a
// face across the innermost dimension halves too), a and b the others in order (extent 1 where
// the region has fewer); strides in elements of the box.
struct Slots {
  int64_t base = 0, first_parity = 0;
  std::array<int64_t, 3> stride{0, 0, 0}, extent{1, 1, 1}; // a, b, x
};

Slots slots_of(const Rect& r) {
  const std::size_t dims = r.array.size();
  if (dims < 1 || dims > 3 || r.offset.size() != dims || r.extent.size() != dims)
    internal_error("a colour-packed region has 1 to 3 dimensions");
  std::vector<int64_t> stride(dims, 1);
  for (std::size_t d = dims - 1; d > 0; --d)
    stride[d - 1] = stride[d] * r.array[d];
  std::size_t paired = dims - 1;
  while (paired > 0 && r.extent[paired] < 2)
    --paired;
  Slots s;
  std::size_t row = 3 - dims; // the rows fill a, b from the back
  for (std::size_t d = 0; d < dims; ++d) {
    s.base += r.offset[d] * stride[d];
    s.first_parity += r.offset[d];
    const std::size_t axis = d == paired ? 2 : row++;
    s.stride[axis] = stride[d];
    s.extent[axis] = r.extent[d];
  }
  return s;
}

} // namespace

ColourPacking::ColourPacking(runtime::Session& session, std::size_t element_bytes)
    : session_(&session) {
  if (element_bytes != 4 && element_bytes != 8)
    internal_error(cat("colour packing moves elements of 4 or 8 bytes, not ", element_bytes));
  const std::string options = element_bytes == 8 ? "-DT=ulong" : "-DT=uint";
  pack_ = session.build_kernel(kSource, "pack_colour", options);
  unpack_ = session.build_kernel(kSource, "unpack_colour", options);
}

int64_t ColourPacking::packed_points(const Rect& rect) {
  const Slots s = slots_of(rect);
  return s.extent[0] * s.extent[1] * ((s.extent[2] + 1) / 2);
}

void ColourPacking::run(runtime::Kernel& kernel, const cl::Buffer& box, const Rect& rect,
                        int origin_parity, int colour, const cl::Buffer& packed) {
  const Slots s = slots_of(rect);
  const auto slots = static_cast<std::size_t>((s.extent[2] + 1) / 2);
  if (slots == 0 || s.extent[0] == 0 || s.extent[1] == 0)
    return;
  const auto parity = static_cast<int32_t>((origin_parity + s.first_parity) % 2);
  runtime::set_args(kernel, {box, packed, s.base, s.stride[0], s.stride[1], s.stride[2],
                             s.extent[1], s.extent[2], parity, static_cast<int32_t>(colour)});
  // Unchecked: a range without a local size, none of its sizes 0 (above), is always launchable,
  // and the driver's answers to the checks cost more than these small launches.
  runtime::enqueue_checked(*session_, kernel,
                           runtime::Range::of({slots, static_cast<std::size_t>(s.extent[1]),
                                               static_cast<std::size_t>(s.extent[0])}));
}

void ColourPacking::pack(const cl::Buffer& box, const Rect& rect, int origin_parity, int colour,
                         const cl::Buffer& packed) {
  run(pack_, box, rect, origin_parity, colour, packed);
}

void ColourPacking::unpack(const cl::Buffer& packed, const cl::Buffer& box, const Rect& rect,
                           int origin_parity, int colour) {
  run(unpack_, box, rect, origin_parity, colour, packed);
}

} // namespace tessera::distributed
