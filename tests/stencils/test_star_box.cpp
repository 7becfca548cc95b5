// The star and box stencils of radius 1-9 by name (stencils/StarBox.h): find_stencil gives them
// beside the catalog, with their points and radius, and they compute the weighted mean.
#include <doctest/doctest.h>

#include "core/Error.h"
#include "primitives/Interpreter.h"
#include "primitives/TypeCheck.h"
#include "stencils/Catalog.h"
#include "stencils/StarBox.h"

using namespace tessera;

TEST_CASE("star and box stencils by name: points, radius, and a mean of a constant grid") {
  struct Expected {
    const char* name;
    int dims, radius, points;
  };
  for (auto e : {Expected{"star2d1r", 2, 1, 5}, Expected{"box2d4r", 2, 4, 81},
                 Expected{"star3d4r", 3, 4, 25}, Expected{"box3d4r", 3, 4, 729}}) {
    CAPTURE(e.name);
    const auto& info = stencils::find_stencil(e.name);
    CHECK(info.dims == e.dims);
    CHECK(info.radius == e.radius);
    CHECK(info.points == e.points);
    CHECK(&stencils::find_stencil(e.name) == &info); // one entry, kept
    // A constant grid stays constant: the weights are divided by their sum.
    std::vector<ArithExpr> extents(static_cast<std::size_t>(e.dims), ArithExpr(5));
    Expr program = info.build(extents);
    Data grid = Data::scalar(ScalarValue::make(ScalarKind::F32, 2.5));
    for (int d = 0; d < e.dims; ++d)
      grid = Data::array(std::vector<Data>(5, grid));
    for (double v : evaluate(program, {grid}).flatten())
      CHECK(v == doctest::Approx(2.5).epsilon(1e-5));
  }
  CHECK_THROWS_AS(stencils::find_stencil("box4d1r"), Error);
  CHECK_THROWS_AS(stencils::find_stencil("box3d4r").build({16, 16}), Error);
}
