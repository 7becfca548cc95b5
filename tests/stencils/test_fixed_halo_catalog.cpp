// The catalog's point stencils under a fixed halo (stencils::with_fixed_halo): stepped by the
// interpreter, each step is the catalog's step inside and the previous values in the halo, as
// the benchmarks' loop copies them; the command line's --steps form (iterate_program) and its
// kernels agree.
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "stencils/Catalog.h"
#include "stencils/Iterated.h"
#include "stencils/WithBoundary.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

TEST_CASE("catalog stencils under a fixed halo step as the benchmarks' loop does") {
  struct Case {
    const char* name;
    std::vector<int64_t> shape;
  };
  for (const Case& c : {Case{"j1d3pt", {20}}, Case{"j2d5pt", {9, 12}}, Case{"gaussian", {10, 11}},
                        Case{"j3d7pt", {6, 7, 8}}, Case{"heat3d", {6, 6, 7}}}) {
    CAPTURE(c.name);
    const stencils::StencilInfo& info = stencils::find_stencil(c.name);
    std::vector<ArithExpr> extents(c.shape.begin(), c.shape.end());
    Expr plain = info.build(extents);
    Expr fixed = stencils::with_fixed_halo(plain);
    Expr three = stencils::iterate_program(fixed, 3);
    std::vector<Data> inputs = random_inputs(plain, 31);
    // The loop: the catalog's step (interpreter) inside, the previous values in the halo.
    std::vector<double> grid = inputs[0].flatten();
    for (int step = 0; step < 3; ++step) {
      Data current = Data::from_flat(ScalarKind::F32, c.shape, grid);
      std::vector<double> next = evaluate(plain, {current}).flatten();
      for (std::size_t i = 0; i < grid.size(); ++i)
        if (!testing::in_halo(static_cast<int64_t>(i), c.shape, info.radius))
          grid[i] = next[i];
    }
    CHECK(evaluate(three, inputs).flatten() == grid);
    testing::check_program(rewrite::lower_default(three), inputs, {}, 1e-5);
  }
}

TEST_CASE("with_fixed_halo refuses programs that are not one stencil step, saying what it needs") {
  Expr restrict = stencils::find_stencil("restrict3d").build({8, 8, 8});
  CHECK_THROWS_WITH_AS(stencils::with_fixed_halo(restrict),
                       doctest::Contains("expected one step of a point stencil on one grid input"),
                       Error);
  Expr symbolic = stencils::find_stencil("j2d5pt").build({size("N"), size("M")});
  CHECK_THROWS_WITH_AS(stencils::with_fixed_halo(symbolic),
                       doctest::Contains("needs a grid of constant extents"), Error);
}
