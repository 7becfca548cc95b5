// Programs of kernels (codegen::generate_program): an iterated stencil and composed steps lower
// by default to one launch per step, with the intermediates in buffers between the launches.
#include <doctest/doctest.h>

#include "dsl/Dsl.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;
using tessera::testing::check_program;
using tessera::testing::random_f32;

namespace {

// One step of Game of Life on an n x m grid (alive: value > 0), wrapping at the edges.
Fun life_step() {
  // total counts the live cells of the 3x3 neighbourhood, the centre included.
  // (Literals adapt to the operand types; x - x keeps a select of two literals f32.)
  auto rule = user_fun("life", [](auto centre, auto total) {
    auto alive = select(centre > 0.0f, total - total + 1.0f, total - total);
    auto neighbours = total - alive;
    return select(neighbours == 3.0f, alive - alive + 1.0f,
                  select(neighbours == 2.0f, alive, alive - alive));
  });
  auto is_alive =
      user_fun("is_alive", [](auto x) { return select(x > 0.0f, x - x + 1.0f, x - x); });
  return pad_nd(2, 1, 1, wrap) >> slide_nd(2, 3, 1) >> map_nd(2, [=](Val nbh) -> Val {
           Val flat = nbh | join();
           Val total = flat | map(is_alive) | reduce(add_fun(), 0.0f);
           return rule(flat.at(4), total.at(0));
         });
}

} // namespace

TEST_CASE("an iterated stencil lowers by default to one launch per step (Game of Life 40x40)") {
  Val x = input("x", Type::array(Type::array(f32(), 40), 40));
  Expr p = program({x}, x | iterate(4, life_step()));
  Expr lowered = rewrite::lower_default(p);
  // One kernel cannot run the steps (no global barrier): it says what to use instead.
  CHECK_ERROR(codegen::generate_kernel(lowered), "generate_program");
  auto kernels = check_program(lowered, {random_f32({40, 40}, 1)});
  CHECK(kernels.launches.size() == 4);
  CHECK(kernels.kernels.size() == 2); // the steps after the first share one kernel
  CHECK(kernels.buffers.size() == 2); // ping-pong
  CHECK(kernels.launches[1].inputs[0] == kernels.launches[0].output);
  // Sizes as arguments: the same program for another grid.
  ArithExpr n = size("N"), m = size("M");
  Val y = input("y", Type::array(Type::array(f32(), m), n));
  Expr symbolic = rewrite::lower_default(program({y}, y | iterate(3, life_step())));
  check_program(symbolic, {random_f32({24, 40}, 2)});
}

TEST_CASE("two composed whole-grid steps are two launches") {
  auto average = user_fun("average3", [](auto a, auto b, auto c) { return (a + b + c) / 3.0f; });
  Fun smooth = pad(1, 1, clamp) >> slide(3, 1) >>
               map([=](Val w) { return average(w.at(0), w.at(1), w.at(2)); });
  Val x = input("x", Type::array(f32(), 1600));
  Val rhs = input("rhs", Type::array(f32(), 1600));
  // Two steps, then a pointwise combination with a second input: three launches.
  Val smoothed = x | smooth | smooth;
  Val out = zip({smoothed, rhs}) | map([](Val t) { return add_fun()(t.get(0), t.get(1)); });
  Expr lowered = rewrite::lower_default(program({x, rhs}, out));
  auto kernels = check_program(lowered, {random_f32({1600}, 3), random_f32({1600}, 4)});
  CHECK(kernels.launches.size() == 3);
  // A program that needs no cut stays one kernel, identical to generate_kernel's.
  Expr single = rewrite::lower_default(program({x}, x | smooth));
  auto one = check_program(single, {random_f32({1600}, 5)});
  REQUIRE(one.kernels.size() == 1);
  CHECK(one.kernels[0].source == codegen::generate_kernel(single).source);
}

TEST_CASE("a computed interior written into a grid with a ghost ring is a program of kernels") {
  // A 3-D-style weighted Jacobi stored with its ghost ring, in 2-D: the interior is computed
  // from the grid with its ring, and the ring is put back around it (zero Dirichlet values).
  auto jacobi = user_fun("jacobi5", [](auto c, auto n, auto s, auto w, auto e) {
    return c * 0.5f + (n + s + w + e) * 0.125f;
  });
  ArithExpr n = size("N");
  Val x = input("x", Type::array(Type::array(f32(), n + 2), n + 2));
  Val interior =
      x | slide_nd(2, 3, 1) | map_nd(2, [=](Val b) {
        return jacobi(b.at(1).at(1), b.at(0).at(1), b.at(2).at(1), b.at(1).at(0), b.at(1).at(2));
      });
  Expr p = program({x}, interior | pad_nd(2, 1, 1, constant(0)));
  Expr lowered = rewrite::lower_default(p);
  auto kernels = check_program(lowered, {random_f32({18, 18}, 6)});
  CHECK(kernels.launches.size() == 2); // the interior, then the grid with its ring
  codegen::CodegenOptions baked;
  baked.baked_sizes["N"] = 30;
  check_program(lowered, {random_f32({32, 32}, 7)}, baked);
}
