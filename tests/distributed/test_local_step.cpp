// The rank-local step under the interpreter: k steps of the stencil's step at a box's own sizes
// (the box reaching h = r k beyond its output on internal sides, the global edge elsewhere) give
// exactly the global k steps on the box's output region, for every boundary kind.
#include <doctest/doctest.h>

#include "distributed/LocalStep.h"
#include "dsl/Dsl.h"
#include "primitives/Interpreter.h"
#include "stencils/Iterated.h"
#include "tests/Helpers.h"
#include "tests/distributed/SweepCases.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;
using namespace tessera::distributed;

namespace {

// Row-major values of a 2-D grid, read with periodic indices (a wrap halo comes from the other
// end of the grid).
std::vector<double> cut(const std::vector<double>& grid, const std::vector<int64_t>& n,
                        const std::vector<int64_t>& lo, const std::vector<int64_t>& extent) {
  std::vector<double> out;
  for (int64_t i = 0; i < extent[0]; ++i)
    for (int64_t j = 0; j < extent[1]; ++j) {
      int64_t gi = ((lo[0] + i) % n[0] + n[0]) % n[0], gj = ((lo[1] + j) % n[1] + n[1]) % n[1];
      out.push_back(grid[gi * n[1] + gj]);
    }
  return out;
}

// k steps of the step at the box's sizes, then the box less h on its internal sides.
std::vector<double> local_steps(const StencilBuilder& build, const std::vector<double>& values,
                                const std::vector<int64_t>& extent, const Sides& internal,
                                int64_t h, int k) {
  Expr steps = stencils::iterate_program(repeatable_step(build, extent), k);
  auto result = evaluate(steps, {Data::from_flat(ScalarKind::F32, extent, values)}).flatten();
  std::vector<int64_t> lo(2), out(2);
  for (int d = 0; d < 2; ++d) {
    lo[d] = internal[d][0] ? h : 0;
    out[d] = extent[d] - lo[d] - (internal[d][1] ? h : 0);
  }
  return cut(result, extent, lo, out);
}

} // namespace

TEST_CASE("k local steps on a box equal the global k steps there, every boundary kind") {
  const std::vector<int64_t> n{19, 17};
  for (const char* name : {"j2d9pt", "gaussian"})
    for (const auto& boundary : testing::boundary_kinds()) {
      const auto& info = stencils::find_stencil(name);
      auto build = testing::with_boundary_builder(info, boundary);
      Expr global = build({n[0], n[1]});
      int64_t r = pad_radius(global);
      bool wrap = boundary == "wrap";
      auto grid = testing::random_values(static_cast<std::size_t>(n[0] * n[1]), 7);
      for (int k = 1; k <= 3; ++k) {
        auto expected = evaluate(stencils::iterate_program(global, k),
                                 {Data::from_flat(ScalarKind::F32, n, grid)})
                            .flatten();
        int64_t h = r * k;
        // Output rows [7, 19) (low side internal, high side the global edge, unless wrap: then
        // internal too), all columns (both global edges: one rank along dimension 1).
        Sides internal{{true, wrap}, {false, false}};
        std::vector<int64_t> out_lo{7, 0}, out_extent{12, n[1]};
        std::vector<int64_t> in_lo{7 - h, 0}, in_extent{12 + h + (wrap ? h : 0), n[1]};
        auto result = local_steps(build, cut(grid, n, in_lo, in_extent), in_extent, internal, h, k);
        CHECK_MESSAGE(result == cut(expected, n, out_lo, out_extent),
                      name << " " << boundary << " k=" << k);
      }
    }
}

TEST_CASE("the radius and the periodicity of a step") {
  const auto& gaussian = stencils::find_stencil("gaussian");
  CHECK(pad_radius(gaussian.build({ArithExpr(9), ArithExpr(9)})) == 2);
  CHECK_FALSE(is_periodic(gaussian.build({ArithExpr(9), ArithExpr(9)})));
  auto wrap = testing::with_boundary_builder(gaussian, "wrap");
  CHECK(is_periodic(wrap({ArithExpr(9), ArithExpr(9)})));
}

TEST_CASE("a step that cannot be repeated is refused") {
  // Windows without padding: the result is 2 shorter than the grid.
  StencilBuilder shrinking = [](const std::vector<ArithExpr>& e) -> Expr {
    auto add = user_fun("add", [](auto a, auto b) { return a + b; });
    Val x = input("x", Type::array(f32(), e.at(0)));
    return program({x}, x | slide(3, 1) | map(reduce(add, 0.0f)) | join());
  };
  CHECK_ERROR(repeatable_step(shrinking, {9}), "result must have the type of its input", "[f32]_9");
  CHECK_ERROR(stencils::parse_boundary("reflect"), "unknown boundary 'reflect'", "mirror");
}
