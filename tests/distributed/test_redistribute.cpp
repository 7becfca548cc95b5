// A level's own points moved from the blocks of all ranks to the blocks of the first half of
// them and back (distributed/Redistribute.h, the agglomeration's stages): every point arrives
// where its global index says, on 1, 2 and 4 ranks, with blocks of uneven extents.
#include <doctest/doctest.h>

#include "distributed/Redistribute.h"
#include "tests/distributed/MpiFixture.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

// Per rank of a run of `size`, its block of `global` split over `ranks` (none beyond them).
std::vector<Block> blocks(const std::vector<int64_t>& global, const std::vector<int>& ranks,
                          int size) {
  BlockGrid g{global, ranks, false, 1, 1};
  int count = 1;
  for (int r : ranks)
    count *= r;
  std::vector<Block> all;
  for (int r = 0; r < size; ++r)
    all.push_back(r < count ? g.block(g.coords_of(r)) : Block{});
  return all;
}

// The global row-major index of each own point of `b`, in the block's row-major order.
std::vector<double> global_indices(const Block& b, const std::vector<int64_t>& global) {
  std::vector<double> v;
  if (b.extent.empty())
    return v;
  for (int64_t i = 0; i < b.extent[0]; ++i)
    for (int64_t j = 0; j < b.extent[1]; ++j)
      v.push_back(static_cast<double>((b.offset[0] + i) * global[1] + b.offset[1] + j));
  return v;
}

} // namespace

TEST_CASE("own points move to the blocks of fewer ranks and back") {
  auto world = testing::mpi_world();
  const int size = world.size(), me = world.rank();
  const std::vector<int64_t> global{11, 7};
  // All ranks split 2-D (size x 1, or 2x2 on 4 ranks); the first half of them 1-D along y.
  const auto from =
      blocks(global, size == 4 ? std::vector<int>{2, 2} : std::vector<int>{size, 1}, size);
  const auto to = blocks(global, {1, std::max(1, size / 2)}, size);
  const auto mine = global_indices(from[me], global);
  const auto moved = redistribute(world, mine, from, to);
  CHECK(moved == global_indices(to[me], global));
  CHECK(moved.empty() == (me >= std::max(1, size / 2)));
  const auto back = redistribute(world, moved, to, from);
  CHECK(back == mine);
}
