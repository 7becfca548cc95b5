// Intermediates of tuples (issue 14 item 8): a work-item's values zipped with a Generate and
// computed into memory are stored as a structure of arrays, one array per component, and the
// kernels match the interpreter.
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

} // namespace

TEST_CASE("a neighbourhood zipped with generated weights and stored per work-item is a "
          "structure of arrays") {
  Val x = input("x", array_of(f32(), {6, 7}));
  Fun weight = user_fun("weight", [](auto i) { return i * 0.25f - 1.0f; });
  Fun times = user_fun("times", [](auto a, auto b) { return a * b; });
  Fun keep = Fun([](Val t) { return t; }); // computed into memory by map_seq: {f32, f32}
  Expr p =
      program({x}, x | pad_nd(2, 1, 1, mirror) | slide_nd(2, 3, 1) | map_nd(2, [=](Val w) {
                     Val pairs = zip({w | join(), generate(9, weight)}) | map_seq(keep);
                     return (pairs | map(Fun([=](Val t) { return times(t.get(0), t.get(1)); })) |
                             reduce(add_fun(), 0.0))
                         .at(0);
                   }));
  Expr lowered = rewrite::lower_default(p);
  CAPTURE(print(lowered));
  codegen::CodegenOptions options;
  options.split_interior = false;
  auto kernels = testing::check_program(lowered, random_inputs(p, 11), options, 1e-5);
  REQUIRE(kernels.kernels.size() == 1);
  // Private arrays of 9 values: the pairs' two components and the products.
  CHECK(count(kernels.kernels[0].source, "[9];") == 3);
}

TEST_CASE("tuples of an array and a scalar, and a lone tuple, are stored component by "
          "component") {
  Val x = input("x", array_of(f32(), {5, 6}));
  Fun keep = Fun([](Val t) { return t; });
  Fun weigh = user_fun("weigh", [](auto a, auto b, auto c) { return (a + b) * c; });
  // Each window's rows zipped with a generated value per row: [{[f32]_3, f32}]_3 in memory.
  Expr p = program(
      {x}, x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, [=](Val w) {
             Val rows =
                 zip({w, generate(3, user_fun("row_weight", [](auto i) { return i + 1; }))}) |
                 map_seq(keep);
             Val first = rows.at(0);
             Val last = rows.at(2);
             return weigh(first.get(0).at(1), last.get(0).at(1), last.get(1));
           }));
  Expr lowered = rewrite::lower_default(p);
  CAPTURE(print(lowered));
  testing::check_program(lowered, random_inputs(p, 12), {}, 1e-5);
}

// Between launches (issue 14): an array of tuples computed by all work-items and read by a
// stencil of a later launch is stored as one buffer per component.
TEST_CASE("an array of tuples between launches is one buffer per component") {
  Fun half = user_fun("half", [](auto a) { return a * 0.5f; });
  Fun twice = user_fun("twice", [](auto a) { return a * 2.0f + 1.0f; });
  Fun blend = user_fun("blend", [](auto a, auto b, auto c) { return a - b * c; });
  // A chunk of values as a chunk of pairs: [f32]_k -> [{f32, f32}]_k.
  Fun pairs_of = Fun([=](Val c) { return zip({c | map_seq(half), c | map_seq(twice)}); });

  SUBCASE("2-D: rows of pairs, read by a 3x3 stencil") {
    Val x = input("x", array_of(f32(), {9, 7}));
    Val pairs = x | map_glb(0, pairs_of); // [[{f32, f32}]_7]_9
    Expr p = program(
        {x}, pairs | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, [=](Val w) {
               return blend(w.at(1).at(1).get(0), w.at(0).at(2).get(1), w.at(2).at(0).get(0));
             }));
    Expr lowered = rewrite::lower_default(p);
    CAPTURE(print(lowered));
    auto kernels = testing::check_program(lowered, random_inputs(p, 21), {}, 1e-5);
    CHECK(kernels.launches.size() == 3); // one per component, then the stencil
    CHECK(kernels.buffers.size() == 2);
  }
  SUBCASE("1-D: chunks of pairs joined, read by a 3-point stencil with mirror padding") {
    Val x = input("x", array_of(f32(), {24}));
    Val pairs = x | split(4) | map_glb(0, pairs_of) | join(); // [{f32, f32}]_24
    Expr p = program({x}, pairs | pad(1, 1, mirror) | slide(3, 1) | map([=](Val w) {
                            return blend(w.at(1).get(1), w.at(0).get(0), w.at(2).get(1));
                          }));
    Expr lowered = rewrite::lower_default(p);
    CAPTURE(print(lowered));
    auto kernels = testing::check_program(lowered, random_inputs(p, 22), {}, 1e-5);
    CHECK(kernels.launches.size() == 3);
  }
}
