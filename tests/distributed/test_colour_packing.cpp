// Halo faces of one red-black colour (distributed/ColourPacking.h): packing a region's points of
// one colour and unpacking them into another buffer must move exactly those points (by global
// parity: the box's first point has parity `origin`) and leave every other point alone, for 1 to
// 3 dimensions, odd and even extents, 4- and 8-byte elements.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "distributed/ColourPacking.h"
#include "distributed/HaloExchange.h"
#include "distributed/MultigridLayout.h"
#include "runtime/Session.h"
#include "tests/distributed/RankSession.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

// The global parity of a point of the box, from its multi-index.
int parity(const std::vector<int64_t>& index, int origin) {
  int64_t sum = origin;
  for (int64_t i : index)
    sum += i;
  return static_cast<int>(sum % 2);
}

// Every point of the array with its multi-index (row-major, outermost first).
template <class F> void each_point(const std::vector<int64_t>& array, F f) {
  std::vector<int64_t> i(array.size(), 0);
  for (int64_t linear = 0;; ++linear) {
    f(i, linear);
    std::size_t d = array.size();
    while (d > 0 && ++i[d - 1] == array[d - 1])
      i[--d] = 0;
    if (d == 0)
      return;
  }
}

bool inside(const Rect& r, const std::vector<int64_t>& i) {
  for (std::size_t d = 0; d < i.size(); ++d)
    if (i[d] < r.offset[d] || i[d] >= r.offset[d] + r.extent[d])
      return false;
  return true;
}

template <class T> void round_trip(const Rect& r, int64_t expected_slots, int origin, int colour) {
  auto& s = testing::rank_session();
  int64_t n = 1;
  for (int64_t e : r.array)
    n *= e;
  std::vector<T> source(static_cast<std::size_t>(n)), target(source.size());
  for (std::size_t i = 0; i < source.size(); ++i) {
    source[i] = static_cast<T>(1000 + i);
    target[i] = static_cast<T>(-1.0 - static_cast<double>(i));
  }
  const std::size_t bytes = source.size() * sizeof(T);
  cl::Buffer from(s.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, source.data());
  cl::Buffer to(s.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, target.data());
  const int64_t slots = ColourPacking::packed_points(r);
  CHECK(slots == expected_slots);
  cl::Buffer packed(s.context(), CL_MEM_READ_WRITE, static_cast<std::size_t>(slots) * sizeof(T));
  ColourPacking colours(s, sizeof(T));
  colours.pack(from, r, origin, colour, packed);
  colours.unpack(packed, to, r, origin, colour);
  std::vector<T> after(source.size());
  s.queue().enqueueReadBuffer(to, CL_TRUE, 0, bytes, after.data());
  int64_t moved = 0, wrong = 0;
  each_point(r.array, [&](const std::vector<int64_t>& i, int64_t linear) {
    const auto at = static_cast<std::size_t>(linear);
    const bool wanted = inside(r, i) && parity(i, origin) == colour;
    moved += wanted;
    wrong += after[at] != (wanted ? source[at] : target[at]);
  });
  CHECK(wrong == 0);
  CHECK(moved > 0);
  CHECK(moved <= slots);
}

} // namespace

TEST_CASE("colour packing moves one colour's points of a region and nothing else") {
  // Each with its packed size: rows times half the paired extent (the innermost one longer
  // than 1), rounded up.
  const std::vector<std::pair<Rect, int64_t>> regions{
      {{{11}, {2}, {7}}, 4},                   // 1-D, odd
      {{{6, 9}, {0, 1}, {6, 8}}, 24},          // 2-D, even rows
      {{{6, 9}, {1, 0}, {1, 9}}, 5},           // 2-D, one odd row
      {{{6, 7}, {0, 3}, {6, 1}}, 3},           // 2-D, a column: paired along the rows
      {{{5, 6, 7}, {1, 0, 0}, {1, 6, 7}}, 24}, // a face of whole rows
      {{{5, 6, 7}, {0, 2, 1}, {5, 1, 5}}, 15}, // a face across planes, odd rows
      {{{4, 5, 6}, {1, 1, 1}, {2, 3, 4}}, 12}, // a box inside
      {{{3, 4, 5}, {0, 0, 4}, {3, 4, 1}}, 6},  // a face across the innermost dimension
  };
  for (const auto& [r, slots] : regions)
    for (int origin = 0; origin < 2; ++origin)
      for (int colour = 0; colour < 2; ++colour) {
        CAPTURE(r.array);
        CAPTURE(r.offset);
        CAPTURE(r.extent);
        CAPTURE(origin);
        CAPTURE(colour);
        round_trip<float>(r, slots, origin, colour);
        round_trip<double>(r, slots, origin, colour);
      }
}

// One colour saves half of each face's bytes and costs two small kernels a face: on a GPU only
// faces of 1 MiB or more gain (measured, distributed/MultigridLayout.cpp); on the CPU all do.
TEST_CASE("exchanges of one colour where they pay") {
  auto exchange_of = [](int64_t side) {
    Face f;
    f.neighbour = 1;
    f.send = {{side + 2, side, side}, {side, 0, 0}, {1, side, side}};
    f.receive = {{side + 2, side, side}, {side + 1, 0, 0}, {1, side, side}};
    return HaloExchange({f}, sizeof(double), FaceStaging::Packing::OnDevice);
  };
  HaloExchange large = exchange_of(512), small = exchange_of(64);
  CHECK(large.largest_face_bytes() == 512u * 512u * 8u);
  CHECK(small.largest_face_bytes() == 64u * 64u * 8u);
  CHECK(colour_exchanges_pay(large, "GPU"));
  CHECK_FALSE(colour_exchanges_pay(small, "GPU"));
  CHECK(colour_exchanges_pay(small, "CPU"));
}
