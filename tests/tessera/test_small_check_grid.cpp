// The small grid that checks the trusted variant against the interpreter (explore/Variants.h):
// smaller for a large window, so that the check of a 729-point box does not take seconds before
// its first point is measured (issue 32), and as before for the catalog's stencils.
#include <doctest/doctest.h>

#include "stencils/Catalog.h"
#include "stencils/StarBox.h"
#include "tessera/tessera.h"

using namespace tessera;
using stencils::Shape;

namespace {

int64_t reads(const std::vector<int64_t>& extents, int64_t points) {
  int64_t cells = 1;
  for (int64_t e : extents)
    cells *= e;
  return cells * points;
}

} // namespace

TEST_CASE("small check grid: large windows check on fewer cells, small ones as before") {
  const std::vector<int64_t> grid3{512, 512, 512}, grid2{8192, 8192};
  auto at = [](const std::vector<int64_t>& e) {
    return std::vector<ArithExpr>(e.begin(), e.end());
  };
  Expr j3d27pt = stencils::find_stencil("j3d27pt").build(at(grid3));
  CHECK(explore::small_extents(grid3, j3d27pt) == std::vector<int64_t>{16, 16, 16});
  Expr box3d4r = stencils::star_box_stencil(at(grid3), 4, Shape::Box, clamp);
  CHECK(explore::small_extents(grid3, box3d4r) == std::vector<int64_t>{10, 10, 10}); // 2r+2
  Expr box3d2r = stencils::star_box_stencil(at(grid3), 2, Shape::Box, clamp);
  auto small = explore::small_extents(grid3, box3d2r);
  CHECK(reads(small, 125) <= reads({16, 16, 16}, 27));
  for (int64_t e : small)
    CHECK(e >= 8);
  // One side for every extent: a program over one size variable N binds it (9, 10, 10 did not).
  CHECK(small == std::vector<int64_t>(3, small[0]));
  ArithExpr n = size("N");
  CHECK_NOTHROW(at_size(stencils::star_box_stencil({n, n, n}, 2, Shape::Box, clamp), small));
  Expr box2d4r = stencils::star_box_stencil(at(grid2), 4, Shape::Box, clamp);
  small = explore::small_extents(grid2, box2d4r);
  CHECK(reads(small, 81) <= reads({64, 64}, 27));
  CHECK(small[0] >= 10);
  // What the explorer reads of a program: its widest user function and Pad (a 256^2 grid of
  // box2d4r is checked by the trusted baseline, its 81 reads a cell beyond the interpreter's).
  auto window = explore::window_size(box2d4r);
  CHECK(window.reads == 81);
  CHECK(window.radius == 4);
  CHECK(explore::window_size(j3d27pt).reads == 27);
  // The explorer's problem checks on it.
  auto problem = make_problem("box3d4r", box3d4r, grid3, 0);
  CHECK(problem.small_extents == std::vector<int64_t>{10, 10, 10});
}
