// Generated kernels for small lowered programs match the interpreter on PoCL.
#include <doctest/doctest.h>

#include "dsl/Dsl.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using tessera::testing::check_kernel;
using tessera::testing::random_f32;

namespace {

// out[i] = sum of the 3-neighbourhood of x[i] with the given boundary.
Expr jacobi3(ArithExpr n, Boundary b) {
  Val x = input("x", Type::array(f32(), n));
  return program({x}, x | pad(1, 1, b) | slide(3, 1) | map_glb(0, [](Val nbh) {
                        return nbh | reduce_seq(add_fun(), 0.0f) | map_seq(to_global(id_fun()));
                      }));
}

} // namespace

TEST_CASE("copy kernel with a symbolic size passed as argument") {
  ArithExpr N = size("N");
  Val x = input("x", Type::array(f32(), N));
  Expr p = program({x}, x | map_glb(0, id_fun()));
  for (int64_t n : {7, 64})
    check_kernel(p, {random_f32({n}, 1)});
  auto k = codegen::generate_kernel(p);
  CHECK(k.source.find("const int N") != std::string::npos);
}

TEST_CASE("1-D 3-point stencil for every boundary kind, baked and symbolic sizes") {
  for (Boundary b : {clamp, mirror, wrap, constant(0.5f), antisymmetric}) {
    CAPTURE(b.to_string());
    for (int64_t n : {5, 13, 64}) {
      check_kernel(jacobi3(n, b), {random_f32({n}, 2)});
      codegen::CodegenOptions baked;
      baked.baked_sizes["N"] = n;
      check_kernel(jacobi3(size("N"), b), {random_f32({n}, 3)}, baked);
    }
  }
}

TEST_CASE("the interior of a clamped stencil has no boundary conditionals") {
  auto k = codegen::generate_kernel(jacobi3(64, clamp));
  INFO(k.source);
  auto split = k.source.find("} else {");
  REQUIRE(split != std::string::npos);
  std::string interior = k.source.substr(0, split);
  interior = interior.substr(interior.find("if (gid0 >= 1"));
  CHECK(interior.find("min(") == std::string::npos);
  CHECK(interior.find("max(") == std::string::npos);
}

TEST_CASE("antisymmetric padding reads the mirror's element once, with the product of signs") {
  const int64_t n = 9, m = 6;
  Val x = input("x", array_of(f32(), {n, m}));
  auto corner = user_fun("corner", [](auto a, auto b) { return a * 0.75 + b * 0.25; });
  Expr p = program({x}, x | pad_nd(2, 1, 1, antisymmetric) | slide_nd(2, 3, 1) |
                            map_glb(1, map_glb(0, [&](Val nbh) {
                                      return corner(nbh.at(1).at(1), nbh.at(0).at(0));
                                    })));
  auto k = check_kernel(p, {random_f32({n, m}, 6)});
  INFO(k.source);
  auto split = k.source.find("} else {");
  REQUIRE(split != std::string::npos);
  // The interior reads plainly; the boundary reads the corner once, times both pads' signs.
  CHECK(k.source.substr(0, split).find(" : (-1)") == std::string::npos);
  std::string boundary = k.source.substr(split);
  CHECK(boundary.find("? 1 : (-1)) * ((1 <= gid1) ? 1 : (-1))) * x[") != std::string::npos);
  CHECK(boundary.find("-x[") == std::string::npos);
}

TEST_CASE("2-D 5-point stencil with nested MapGlb") {
  for (Boundary b : {clamp, constant(0.0f)}) {
    const int64_t n = 9, m = 6;
    Val x = input("x", array_of(f32(), {n, m}));
    auto five = user_fun("five_point", [](auto c, auto nn, auto s, auto e, auto w) {
      return c * 0.5 + (nn + s + e + w) * 0.125;
    });
    Expr p =
        program({x}, x | pad_nd(2, 1, 1, b) | slide_nd(2, 3, 1) |
                         map_glb(1, map_glb(0, [&](Val nbh) {
                                   return five(nbh.at(1).at(1), nbh.at(0).at(1), nbh.at(2).at(1),
                                               nbh.at(1).at(2), nbh.at(1).at(0));
                                 })));
    check_kernel(p, {random_f32({n, m}, 4)});
  }
}

TEST_CASE("tiles with MapWrg and MapLcl staged in local memory") {
  const int64_t n = 24;
  Val x = input("x", Type::array(f32(), n));
  // Overlapped tiles of 6 outputs (8 inputs), staged in local memory, then 3-point sums.
  Expr p = program(
      {x}, x | pad(1, 1, clamp) | slide(8, 6) | map_wrg(0, [](Val tile) {
             return tile | to_local(map_lcl(0, id_fun())) | slide(3, 1) | map_lcl(0, [](Val nbh) {
                      return nbh | reduce_seq(add_fun(), 0.0f) | map_seq(to_global(id_fun()));
                    });
           }) | join());
  auto k = check_kernel(p, {random_f32({n}, 5)});
  CHECK(k.source.find("__local float") != std::string::npos);
  CHECK(k.source.find("barrier(CLK_LOCAL_MEM_FENCE)") != std::string::npos);
  // Without a size the work-group is the widest MapLcl (8), the narrower one (6) is guarded.
  CHECK(k.launch.local[0] == 8);
  CHECK(k.launch.global[0] == ArithExpr(4 * 8));
  CHECK(k.source.find("if (lid0 < 6) {") != std::string::npos);
  CHECK(k.source.find("if (lid0 < 8)") == std::string::npos);
  // An explicit work-group size keeps its own loops.
  codegen::CodegenOptions four;
  four.local_size = {4, 0, 0};
  auto k4 = check_kernel(p, {random_f32({n}, 6)}, four);
  CHECK(k4.launch.local[0] == 4);
  CHECK(k4.source.find("+= 4)") != std::string::npos);
}

TEST_CASE("antisymmetric tiles staged in local memory (run under Oclgrind by CTest)") {
  const int64_t n = 24;
  Val x = input("x", Type::array(f32(), n));
  auto weighted =
      user_fun("weighted", [](auto a, auto b, auto c) { return a * 0.25 + b + c * 0.5; });
  // Overlapped tiles of 6 outputs with their halo in local memory: the work-items at the ends of
  // the first and the last tile copy negated ghosts.
  Expr p = program({x}, x | pad(1, 1, antisymmetric) | slide(8, 6) | map_wrg(0, [&](Val tile) {
                          return tile | to_local(map_lcl(0, id_fun())) | slide(3, 1) |
                                 map_lcl(0, [&](Val nbh) {
                                   return to_global(weighted)(nbh.at(0), nbh.at(1), nbh.at(2));
                                 });
                        }) | join());
  auto k = check_kernel(p, {random_f32({n}, 7)});
  CHECK(k.source.find("__local float") != std::string::npos);
  CHECK(k.source.find("? 1 : (-1)) * x[") != std::string::npos);
}

TEST_CASE("toLocal inside MapLcl is refused: the work-items would share one buffer") {
  const int64_t n = 24;
  Val x = input("x", Type::array(f32(), n));
  Expr p = program({x}, x | pad(1, 1, clamp) | slide(8, 6) | map_wrg(0, [](Val tile) {
                          return tile | slide(3, 1) | map_lcl(0, [](Val nbh) {
                                   return nbh | to_local(map_seq(id_fun())) |
                                          reduce_seq(add_fun(), 0.0f) |
                                          map_seq(to_global(id_fun()));
                                 });
                        }) | join());
  CHECK_THROWS_WITH_AS(codegen::generate_kernel(p),
                       doctest::Contains("inside MapLcl: the work-items would share one buffer"),
                       Error);
}
