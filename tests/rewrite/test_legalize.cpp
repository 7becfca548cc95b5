// lower_default keeps the mappings already in a program where the code generator can run them,
// and makes the others sequential (rewrite/Legalize.h): every such program then generates, and
// its kernels match the interpreter.
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Legalize.h"
#include "rewrite/Lower.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

namespace {

Fun halve() {
  return user_fun("halve", [](auto a) { return a * 0.5f; });
}

// Lowers by default, checks the kernels against the interpreter and returns the lowering.
std::string lowered_and_checked(const Expr& p) {
  Expr lowered = rewrite::lower_default(p);
  CAPTURE(print(lowered));
  testing::check_program(lowered, random_inputs(p, 7), {}, 1e-6);
  return print(lowered);
}

} // namespace

TEST_CASE("legalize: a MapGlb computing an intermediate inside a neighbourhood function becomes "
          "MapSeq") {
  Val x = input("x", array_of(f32(), {12}));
  Expr p = program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map(Fun([](Val w) {
                          return (w | map_glb(0, halve()) | reduce(add_fun(), 0.0f)).at(0);
                        })));
  std::string lowered = lowered_and_checked(p);
  CHECK(lowered.find("MapSeq(halve)") != std::string::npos);
  CHECK(lowered.find("MapGlb(0)(At(0)") != std::string::npos); // the stencil's own mapping
}

TEST_CASE("legalize: an inner MapGlb of the dimension the default lowering gives the outer map, "
          "and work-groups below a global map, become sequential") {
  Val x = input("x", array_of(f32(), {6, 8}));
  Val cube = input("cube", array_of(f32(), {3, 4, 8}));
  std::string same_dim = lowered_and_checked(program({x}, x | map(map_glb(0, halve()))));
  CHECK(same_dim.find("MapGlb(0)(MapSeq(halve))") != std::string::npos);
  std::string groups =
      lowered_and_checked(program({cube}, cube | map(map_wrg(0, map_lcl(0, halve())))));
  CHECK(groups.find("MapWrg") == std::string::npos);
  CHECK(groups.find("MapLcl") == std::string::npos);
}

TEST_CASE("legalize: mappings that can run are kept, local memory outside work-groups becomes "
          "private") {
  Val x = input("x", array_of(f32(), {4, 8}));
  Expr groups = program({x}, x | map_wrg(0, map_lcl(0, halve())));
  CHECK(print(rewrite::legalize_mappings(groups)) == print(groups));
  Expr nest = program({x}, x | map_glb(1, map_glb(0, halve())));
  CHECK(print(rewrite::legalize_mappings(nest)) == print(nest));
  Expr staged =
      program({x}, x | map_glb(0, Fun([](Val row) {
                                 return row | to_local(map_seq(halve())) | map_seq(halve());
                               })));
  std::string lowered = lowered_and_checked(staged);
  CHECK(lowered.find("toLocal") == std::string::npos);
  CHECK(lowered.find("toPrivate") != std::string::npos);
}

TEST_CASE("legalize: a MapLcl inside toPrivate, or computing an intermediate inside a MapLcl, "
          "becomes MapSeq") {
  // Seed 3107, case 237 of tessera_fuzz: each work-item filled only its own element of the
  // private copy and the Reduce read them all.
  Val x = input("x", array_of(f32(), {8}));
  Fun chunk_sum = Fun(
      [](Val v) { return (v | to_private(map_lcl(0, halve())) | reduce(add_fun(), 0.0f)).at(0); });
  Expr in_map_seq = program(
      {x}, x | pad(0, 1, clamp) | slide(2, 1) |
               map_wrg(0, Fun([=](Val w) {
                         return (w | split(2) | map(chunk_sum) | reduce(add_fun(), 0.0f)).at(0);
                       })));
  std::string lowered = lowered_and_checked(in_map_seq);
  CHECK(lowered.find("toPrivate(MapSeq(halve))") != std::string::npos);
  // An intermediate of MapLcl(1) inside MapLcl(0): each work-item's own elements only.
  Val grid = input("grid", array_of(f32(), {4, 6, 3}));
  Expr nested = program(
      {grid},
      grid |
          map_wrg(0, map_lcl(0, Fun([](Val row) {
                               return (row | map_lcl(1, halve()) | reduce(add_fun(), 0.0f)).at(0);
                             }))));
  std::string demoted = lowered_and_checked(nested);
  CHECK(demoted.find("MapLcl(1)") == std::string::npos);
  CHECK(demoted.find("MapLcl(0)") != std::string::npos);
}
