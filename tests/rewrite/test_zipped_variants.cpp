// Programs over zipped inputs (a smoother with a right-hand side) get the local-memory variants
// that a single input gets (issue 14 item 5), and they match the interpreter.
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "primitives/Interpreter.h"
#include "rewrite/Variants.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

TEST_CASE("a smoother with a right-hand side gets work-group variants with its tiles in local "
          "memory") {
  auto smooth = user_fun("smooth", [](auto c, auto n, auto s, auto w, auto e, auto f) {
    return (n + s + w + e + f) * 0.25f - c * 0.125f;
  });
  Val x = input("x", Type::array(Type::array(f32(), 16), 16));
  Val rhs = input("rhs", Type::array(Type::array(f32(), 16), 16));
  Val nbhs = x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1);
  Expr p = program({x, rhs}, zip_nd(2, {nbhs, rhs}) | map_nd(2, [=](Val t) {
                               Val b = t.get(0);
                               return smooth(b.at(1).at(1), b.at(0).at(1), b.at(2).at(1),
                                             b.at(1).at(0), b.at(1).at(2), t.get(1));
                             }));
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {4, 8};
  auto lowered = rewrite::lowered_variants(p, options);
  auto inputs = random_inputs(p, 3);
  int staged = 0;
  for (const auto& v : lowered.variants) {
    if (v.history.back().rule != "mapping: work-groups, local memory")
      continue;
    CAPTURE(print(v.program));
    auto kernels = testing::check_program(v.program, inputs, {}, 1e-5);
    // Both tiles (the neighbourhoods' and the right-hand side's) are in local memory.
    REQUIRE(kernels.launches.size() == 1); // a tiled result is written through its views
    const std::string& source = kernels.kernels.back().source;
    std::size_t local_arrays = 0;
    for (auto at = source.find("__local "); at != std::string::npos;
         at = source.find("__local ", at + 1))
      ++local_arrays;
    CHECK(local_arrays == 2);
    ++staged;
  }
  INFO(lowered.summary());
  CHECK(staged > 0);
  for (const auto& [reason, count] : lowered.rejection_reasons)
    CHECK_MESSAGE(reason.find("MapLcl expects an array") == std::string::npos, reason);
}
