// The block decomposition, the boxes of one exchange period and where boxes lie (pure
// arithmetic, no MPI).
#include <doctest/doctest.h>

#include "distributed/BlockGrid.h"
#include "distributed/ReplicatedLevels.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

BlockGrid grid_of(std::vector<int64_t> global, std::vector<int> ranks, bool periodic,
                  int64_t radius, int steps) {
  BlockGrid g;
  g.global = std::move(global);
  g.ranks = std::move(ranks);
  g.periodic = periodic;
  g.radius = radius;
  g.steps = steps;
  g.validate();
  return g;
}

int64_t rank_count(const BlockGrid& g) {
  int64_t n = 1;
  for (int r : g.ranks)
    n *= r;
  return n;
}

} // namespace

TEST_CASE("the blocks cover the grid once, uneven extents included") {
  auto g = grid_of({17, 16, 5}, {3, 2, 1}, false, 1, 2);
  std::vector<int> covered(17 * 16 * 5, 0);
  for (int r = 0; r < rank_count(g); ++r) {
    Block b = g.block(g.coords_of(r));
    for (int64_t i = 0; i < b.extent[0]; ++i)
      for (int64_t j = 0; j < b.extent[1]; ++j)
        for (int64_t k = 0; k < b.extent[2]; ++k)
          ++covered[((b.offset[0] + i) * 16 + b.offset[1] + j) * 5 + b.offset[2] + k];
    CHECK(b.extent[0] >= 5);
    CHECK(b.extent[0] <= 6);
    // Halos only where a neighbour is.
    CHECK(b.halo_lo[0] == (b.coords[0] > 0 ? 2 : 0));
    CHECK(b.halo_hi[0] == (b.coords[0] < 2 ? 2 : 0));
    CHECK(b.halo_lo[2] == 0);
  }
  for (int c : covered)
    CHECK(c == 1);
}

TEST_CASE("a torus has halos on both sides along split dimensions only") {
  auto g = grid_of({20, 9}, {2, 1}, true, 2, 3);
  Block b = g.block({0, 0});
  CHECK(b.internal[0] == std::array<bool, 2>{true, true});
  CHECK(b.internal[1] == std::array<bool, 2>{false, false});
  CHECK(b.extended() == std::vector<int64_t>{10 + 12, 9});
}

TEST_CASE("the boxes of a period are disjoint, cover the block and read inside E") {
  for (bool periodic : {false, true})
    for (int steps : {1, 2, 3}) {
      auto g = grid_of({23, 19, 14}, {2, 2, 1}, periodic, 1, steps);
      for (int r = 0; r < rank_count(g); ++r) {
        Block b = g.block(g.coords_of(r));
        auto list = boxes(b, g.radius, g.steps, true);
        std::size_t internal_sides = 0;
        for (const auto& sides : b.internal)
          internal_sides += (sides[0] ? 1 : 0) + (sides[1] ? 1 : 0);
        CHECK(list.size() == 1 + internal_sides); // the interior and one shell box per side
        std::vector<int> covered(static_cast<std::size_t>(b.points()), 0);
        auto e = b.extended();
        for (const auto& box : list) {
          for (std::size_t d = 0; d < 3; ++d) {
            CHECK(box.in_offset[d] >= 0);
            CHECK(box.in_offset[d] + box.in_extent[d] <= e[d]);
            // The input reaches h beyond the output exactly on the box's internal sides.
            int64_t lo = box.internal[d][0] ? g.halo() : 0, hi = box.internal[d][1] ? g.halo() : 0;
            CHECK(box.in_extent[d] == box.out_extent[d] + lo + hi);
            CHECK(box.in_offset[d] == b.halo_lo[d] + box.out_offset[d] - lo);
          }
          for (int64_t i = 0; i < box.out_extent[0]; ++i)
            for (int64_t j = 0; j < box.out_extent[1]; ++j)
              for (int64_t k = 0; k < box.out_extent[2]; ++k)
                ++covered[((box.out_offset[0] + i) * b.extent[1] + box.out_offset[1] + j) *
                              b.extent[2] +
                          box.out_offset[2] + k];
        }
        for (int c : covered)
          CHECK(c == 1);
        // Without overlap: E to the block in one box.
        auto one = boxes(b, g.radius, g.steps, false);
        REQUIRE(one.size() == 1);
        CHECK(one[0].in_extent == e);
        CHECK(one[0].out_extent == b.extent);
      }
    }
}

TEST_CASE("a block too thin for an interior falls back to one box") {
  auto g = grid_of({12}, {2}, false, 3, 2); // blocks of 6, halo 6: no interior
  Block b = g.block({0});
  auto list = boxes(b, g.radius, g.steps, true);
  REQUIRE(list.size() == 1);
  CHECK(list[0].out_extent == b.extent);
}

TEST_CASE("blocks thinner than the halo are refused with the numbers") {
  CHECK_ERROR(grid_of({10, 40}, {4, 1}, false, 1, 3), "blocks of 2 points along dimension 0",
              "halo of 3", "fewer --steps");
  CHECK_ERROR(grid_of({10, 40}, {2, 1, 1}, false, 1, 1), "ranks along 2 dimensions");
  // One rank along a dimension exchanges nothing there: any thickness works.
  CHECK_NOTHROW(grid_of({10, 2}, {2, 1}, false, 1, 5));
}

// Where the levels solved on every rank may mark a rank's halo exact (ReplicatedLevels.h): the
// answer for the whole grid of ranks, so that no rank skips an exchange its neighbour makes.
TEST_CASE("every box inside the grid: not on a torus, whichever rank asks") {
  CHECK(every_box_inside(grid_of({16, 8}, {4, 1}, false, 1, 1), 4));
  CHECK(every_box_inside(grid_of({16, 8}, {2, 2}, false, 1, 1), 4));
  // On a torus of 4x1 ranks the middle ranks' boxes lie inside, the outer ones' wrap around:
  // the answer is no for all of them.
  const BlockGrid torus = grid_of({16, 8}, {4, 1}, true, 1, 1);
  CHECK(torus.block(torus.coords_of(1)).halo_lo[0] == 1);
  CHECK_FALSE(every_box_inside(torus, 4));
  // One rank along a periodic dimension has no halo there: nothing wraps.
  CHECK(every_box_inside(grid_of({16, 8}, {1, 1}, true, 1, 1), 1));
}
