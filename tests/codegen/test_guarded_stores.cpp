// A Drop on the way to the output (issue 33: tiles with a remainder were two kernels, the padded
// tiles and a copy that dropped the padding): the code generator writes through it with guarded
// stores, one kernel, exact against the interpreter.
#include <doctest/doctest.h>

#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using tessera::testing::check_program;
using tessera::testing::has;
using tessera::testing::random_f32;

namespace {

Fun average3() {
  auto f = user_fun("average3", [](auto a, auto b, auto c) { return (a + b + c) / 3.0f; });
  return Fun([=](Val w) { return f(w.at(0), w.at(1), w.at(2)); });
}

} // namespace

TEST_CASE("a Drop of a computed array on the way to the output is one kernel of guarded stores") {
  // Both ends dropped: the first element computed is not stored, nor the last two.
  Val x = input("x", Type::array(f32(), 100));
  Expr p = program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map_glb(0, average3()) | drop(1, 2));
  auto kernels = check_program(p, {random_f32({100}, 1)});
  REQUIRE(kernels.launches.size() == 1);
  const std::string& source = kernels.kernels[0].source;
  CHECK(has(source, "if ((gid0 < 98) && (1 <= gid0)) out[gid0 - 1] = "));
  CHECK(has(source, "    out[gid0 - 1] = ")); // the interior: no guard
}

TEST_CASE("Drops at two levels guard a store with both conditions") {
  // Tiles with a remainder at two levels, written by hand: 30x27 padded (clamp) to 32x28, tiles
  // of 4x4 in work-groups, the padding's results dropped on the way out.
  Val x = input("x", Type::array(Type::array(f32(), 27), 30));
  auto scale = user_fun("scale", [](auto a) { return a * 0.5f + 1.0f; });
  Val tiled = x | pad(0, 2, clamp) | map(pad(0, 1, clamp)) | split(4) | map(map(split(4))) |
              map(transpose()) |
              map_wrg(1, map_wrg(0, map_lcl(1, map_lcl(0, [=](Val v) { return scale(v); })))) |
              map(transpose()) | map(map(join())) | join();
  Expr p = program({x}, tiled | drop(0, 2) | map(drop(0, 1)));
  auto kernels = check_program(p, {random_f32({30, 27}, 2)});
  REQUIRE(kernels.launches.size() == 1);
  CHECK(has(kernels.kernels[0].source, "&&")); // one store, two conditions
}

TEST_CASE("a reduction's result stored through a Drop") {
  // Row sums of 12 rows, the first two and the last one dropped: the accumulator is private,
  // the store guarded.
  Val x = input("x", Type::array(Type::array(f32(), 9), 12));
  Expr p = program({x}, x | map_glb(0, reduce_seq(add_fun(), 0.0f)) | drop(2, 1));
  auto kernels = check_program(p, {random_f32({12, 9}, 3)});
  REQUIRE(kernels.launches.size() == 1);
  CHECK(has(kernels.kernels[0].source, "if ("));
}

TEST_CASE("a Drop read by another computation stays a view of the computed buffer") {
  // The dropped array is not the output: the second step reads it through the Drop (two
  // launches, as before; no copy).
  Val x = input("x", Type::array(f32(), 64));
  Val first = x | pad(1, 1, clamp) | slide(3, 1) | map_glb(0, average3()) | drop(0, 4);
  Expr p = program({x}, first | pad(1, 1, clamp) | slide(3, 1) | map_glb(0, average3()));
  auto kernels = check_program(p, {random_f32({64}, 4)});
  CHECK(kernels.launches.size() == 2);
}
