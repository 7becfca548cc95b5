// Stencils as users write them (issue 14): symbolic sizes bound at run time, inputs in any
// order, unlowered programs, literal constants of another numeric type. Each case is checked on
// every path: the interpreter, kernel generation (sizes baked), the launch (sizes as arguments)
// and the explorer's workload.
#include <doctest/doctest.h>

#include "compile/Workload.h"
#include "core/Substitute.h"
#include "dsl/Dsl.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;
using tessera::testing::check_kernel;
using tessera::testing::random_f32;
using tessera::testing::test_session;

namespace {

// A 2-D restriction: windows of 3x3 with step 2 over a clamped grid of M x M, summed. The windows
// fit exactly only for odd M.
Expr restriction(ArithExpr m) {
  Val x = input("x", Type::array(Type::array(f32(), m), m));
  return program({x}, x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 2) | map_nd(2, [](Val nbh) {
                        return nbh | join() | reduce(add_fun(), 0.0f);
                      }) | map(join()));
}

} // namespace

TEST_CASE("a symbolic side condition is checked when the size is bound, on every path") {
  Expr p = restriction(size("M"));
  Expr lowered = rewrite::lower_default(p);
  // M = 9 fits: every path agrees with the interpreter.
  check_kernel(lowered, {random_f32({9, 9}, 1)});
  // M = 10 does not: the interpreter, the kernel with M as an argument, the kernel with M baked
  // and the explorer's workload all refuse it with the reason.
  const char* reason = "is not a multiple of the step 2";
  CHECK_ERROR(evaluate(p, {random_f32({10, 10}, 2)}), reason, "M = 10");
  auto kernel = codegen::generate_kernel(lowered);
  CHECK(!kernel.size_conditions.empty());
  CHECK_ERROR(explore::execute(test_session(), kernel, {random_f32({10, 10}, 2)}), reason, "M = 10",
              "kernel");
  codegen::CodegenOptions baked;
  baked.baked_sizes["M"] = 10;
  CHECK_ERROR(codegen::generate_kernel(lowered, baked), reason);
  CHECK_ERROR(explore::Workload(test_session(), substitute_sizes(p, {{"M", ArithExpr(10)}})),
              reason);
}

TEST_CASE("sizes are solved from all inputs, whatever their order") {
  ArithExpr mc = size("MC");
  // Prolongation-like: y : [2*MC+1]^2 and Y : [MC]^2; out = y[1:2*MC] (every other) + Y.
  auto make = [&](bool fine_first) {
    Val y = input("y", Type::array(Type::array(f32(), 2 * mc + 1), 2 * mc + 1));
    Val coarse = input("Y", Type::array(Type::array(f32(), mc), mc));
    Val picked = y | drop_nd(2, 1, 0) | split_nd(2, 2) |
                 map_nd(2, [](Val block) { return block.at(0).at(0); });
    Val out = zip_nd(2, {picked, coarse}) |
              map_nd(2, [](Val t) { return add_fun()(t.get(0), t.get(1)); });
    return fine_first ? program({y, coarse}, out) : program({coarse, y}, out);
  };
  Data fine = random_f32({9, 9}, 3), coarse = random_f32({4, 4}, 4);
  Data a = evaluate(make(true), {fine, coarse});
  Data b = evaluate(make(false), {coarse, fine});
  CHECK(explore::max_relative_error(a, b) == 0);
  check_kernel(rewrite::lower_default(make(true)), {fine, coarse});
  check_kernel(rewrite::lower_default(make(false)), {coarse, fine});
  // No MC gives 2*MC+1 = 8: the length is named.
  CHECK_ERROR(evaluate(make(true), {random_f32({8, 8}, 5), coarse}), "2");
}

TEST_CASE("generate_kernel refuses a program that was never lowered, naming the fix") {
  Val x = input("x", Type::array(f32(), 16));
  Expr p = program({x}, x | pad(1, 1, clamp) | slide(3, 1) |
                            map([](Val nbh) { return nbh | reduce(add_fun(), 0.0f); }));
  CHECK_ERROR(codegen::generate_kernel(p), "needs a lowered program", "lower_default");
  check_kernel(rewrite::lower_default(p), {random_f32({16}, 6)});
}

TEST_CASE("a constant boundary literal adapts to the element type on every path") {
  ArithExpr n = size("N");
  for (auto boundary : {constant(0), constant(2), constant(0.5)}) {
    CAPTURE(boundary.to_string());
    Val x = input("x", Type::array(Type::array(f32(), n), n));
    Expr p =
        program({x}, x | pad_nd(2, 1, 1, boundary) | slide_nd(2, 3, 1) |
                         map_nd(2, [](Val nbh) { return nbh | join() | reduce(add_fun(), 0.0f); }));
    Data in = random_f32({6, 6}, 7);
    Data out = evaluate(p, {in});
    // The corner sums five padded values and four grid values.
    double c = boundary.value.as_double();
    double corner = 5 * c + in[0][0].as_scalar().as_double() + in[0][1].as_scalar().as_double() +
                    in[1][0].as_scalar().as_double() + in[1][1].as_scalar().as_double();
    CHECK(out[0][0][0].as_scalar().as_double() == doctest::Approx(corner).epsilon(1e-6));
    Expr lowered = rewrite::lower_default(p);
    check_kernel(lowered, {in});
    codegen::CodegenOptions baked;
    baked.baked_sizes["N"] = 6;
    check_kernel(lowered, {in}, baked);
  }
  // A value the elements cannot hold is still refused, with the reason.
  Val ints = input("k", Type::array(i32(), 8));
  CHECK_ERROR(ints | pad(1, 1, constant(0.5)), "0.5", "not exactly representable");
}

TEST_CASE("a program of kernels checks the deferred size conditions of every launch") {
  // Smooth, then restrict: two launches; the restriction's windows fit only for odd M.
  auto average = user_fun("average3", [](auto a, auto b, auto c) { return (a + b + c) / 3.0f; });
  ArithExpr m = size("M");
  Val x = input("x", Type::array(f32(), m));
  Val smoothed = x | pad(1, 1, clamp) | slide(3, 1) |
                 map([=](Val w) { return average(w.at(0), w.at(1), w.at(2)); });
  Expr p = program({x}, smoothed | pad(1, 1, clamp) | slide(3, 2) |
                            map([](Val w) { return w | reduce(add_fun(), 0.0f); }));
  auto kernels = codegen::generate_program(rewrite::lower_default(p));
  CHECK(kernels.launches.size() == 2);
  CHECK(!kernels.size_conditions.empty());
  testing::check_program(rewrite::lower_default(p), {random_f32({33}, 8)});
  CHECK_ERROR(explore::execute(test_session(), kernels, {random_f32({32}, 8)}),
              "not a multiple of the step 2", "M = 32");
}

// Issue 14 item 7: a 2-D prolongation of a 17x17 coarse grid, each coarse point giving a 2x2
// block of bilinear values, put into a 34x34 grid with a ghost ring: one work-item would hold
// 34 x 34 = 1156 values. The default lowering makes it two launches that fit; a private array
// over the limit is refused with a message that names the rewrites that make it fit.
TEST_CASE("a prolongation into a grid with a ghost ring fits private memory by default") {
  auto bilinear =
      user_fun("bilinear", [](auto a, auto b, auto c, auto d) { return (a + b + c + d) * 0.25f; });
  Val coarse = input("coarse", Type::array(Type::array(f32(), 17), 17));
  // [16][16][2][2]: each fine value of a block weighs its own corner with the block's others.
  Val blocks = coarse | slide_nd(2, 2, 1) | map_nd(2, [=](Val w) {
                 return w | map_nd(2, [=](Val corner) {
                          return bilinear(corner, w.at(0).at(1), w.at(1).at(0), w.at(1).at(1));
                        });
               });
  Val fine = blocks | map(transpose()) | map(map(join())) | join(); // [32][32]
  Expr p = program({coarse}, fine | pad_nd(2, 1, 1, constant(0)));
  Expr lowered = rewrite::lower_default(p);
  auto kernels = testing::check_program(lowered, {random_f32({17, 17}, 9)});
  CHECK(kernels.launches.size() == 2);
  // A work-item's copy of 1100 values is over the limit: the message names the fixes.
  Val rows = input("rows", Type::array(Type::array(f32(), 1100), 4));
  Fun copy = user_fun("copy", [](auto a) { return a; });
  Expr big = program({rows}, rows | map_glb(0, Fun([=](Val row) {
                                              return row | to_private(map_seq(copy)) |
                                                     reduce_seq(add_fun(), 0.0f);
                                            })));
  CHECK_ERROR(codegen::generate_kernel(big), "private array of 1100 elements", "tile-nd",
              "stage-local", "generate_program");
}
