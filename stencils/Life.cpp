// Conway's Game of Life on i32 cells (1 alive, 0 dead) with dead cells beyond the grid.
#include "stencils/Neighbourhood.h"

namespace tessera::stencils {

namespace {

// The 3x3 neighbourhood's sum by a reduction, then the rule on (cell, sum):
//   lifeRule(nbh[1][1], Reduce(add, 0) o Join $ nbh) over Slide2D(3, 1) o Pad2D(1, 1, constant(0)).
Expr life(const std::vector<ArithExpr>& e) {
  require_dims(e, 2, "life");
  Fun rule = user_fun("lifeRule", [](auto cell, auto sum) {
    auto neighbours = sum - cell;
    return cast(ScalarKind::I32, neighbours == 3 || (cell == 1 && neighbours == 2));
  });
  return neighbourhood_stencil(e, ScalarKind::I32, 1, constant(0), [=](Val nbh) {
    return rule(nbh.at(1).at(1), (nbh | join_nd(2) | reduce(add_fun(), 0)).at(0));
  });
}

} // namespace

std::vector<StencilInfo> life_entries() {
  return {
      {.name = "life",
       .description = "Conway's Game of Life, i32 cells 0/1, constant-0 boundary: alive next if "
                      "3 live neighbours, or alive and 2 (neighbours = Reduce(add) of the 3x3 "
                      "box - cell)",
       .dims = 2,
       .build = life,
       .radius = 1,
       .points = 9,
       .bytes_per_cell = 8},
  };
}

} // namespace tessera::stencils
