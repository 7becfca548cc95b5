// Programs over zipped inputs (a smoother with a right-hand side) get every variant that a
// single input gets (issue 14 item 5): tiles in local memory, streaming with rotating windows;
// their kernels match the interpreter.
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <utility>

#include "compile/ExecutableVariants.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "primitives/Interpreter.h"
#include "rewrite/Variants.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/rewrite/MarchCheck.h"

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
  auto lowered = explore::executable_variants(p, options);
  auto inputs = random_inputs(p, 3);
  int staged = 0;
  for (const auto& v : lowered.variants) {
    if (!v.mapping || v.mapping->kind != rewrite::MappingKind::LocalMemory)
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

namespace {

// A Jacobi-like smoother with a right-hand side in d = 2 or 3 dimensions of extent `size`:
// the neighbourhoods of x zipped with rhs.
Expr smoother_with_rhs(int d, int64_t size) {
  std::vector<ArithExpr> shape(static_cast<std::size_t>(d), ArithExpr(size));
  Val x = input("x", array_of(f32(), shape));
  Val rhs = input("rhs", array_of(f32(), shape));
  auto smooth = user_fun("smooth", [](auto centre, auto low, auto high, auto f) {
    return (low + high + f) * 0.25f - centre * 0.125f;
  });
  Val nbhs = x | pad_nd(d, 1, 1, clamp) | slide_nd(d, 3, 1);
  return program({x, rhs}, zip_nd(d, {nbhs, rhs}) | map_nd(d, [=](Val t) {
                             Val w = t.get(0);
                             Val centre = d == 2 ? w.at(1).at(1) : w.at(1).at(1).at(1);
                             Val low = d == 2 ? w.at(0).at(1) : w.at(0).at(1).at(1);
                             Val high = d == 2 ? w.at(1).at(2) : w.at(1).at(1).at(2);
                             return smooth(centre, low, high, t.get(1));
                           }));
}

} // namespace

// stream-nd over the zipped neighbourhoods and right-hand side (2-D column marching and 2.5-D
// with whole columns or segments, 1, 2 or 4 results along x): each kernel matches the interpreter,
// its march loads one new row (plane) of x's window per step and nothing else of x, reads the
// right-hand side once per result, and rotates the window in registers.
TEST_CASE("a smoother with a right-hand side gets streaming variants that rotate its window") {
  for (int d : {2, 3}) {
    CAPTURE(d);
    Expr p = smoother_with_rhs(d, d == 2 ? 16 : 8);
    rewrite::EnumerateOptions options;
    options.depth = 1;
    options.tile_sizes = {4};
    auto lowered = explore::executable_variants(p, options);
    auto inputs = random_inputs(p, 5);
    std::set<std::pair<int64_t, int64_t>> seen; // (segment, factor)
    for (const auto& v : lowered.variants) {
      if (!v.mapping || v.mapping->kind != rewrite::MappingKind::Streaming)
        continue;
      CAPTURE(print(v.program));
      const auto& params = v.history.front().params;
      int64_t factor = params.count("factor") ? params.at("factor") : 1;
      seen.insert({params.count("segment") ? params.at("segment") : 0, factor});
      // The mapping records the stream-nd step's shape.
      CHECK(v.mapping->dims == d);
      CHECK(v.mapping->factor == (factor > 1 ? factor : 0));
      CHECK(v.mapping->segment == (params.count("segment") ? params.at("segment") : 0));
      auto kernels = testing::check_program(v.program, inputs, {}, 1e-5);
      REQUIRE(kernels.kernels.size() == 1);
      testing::March march = testing::first_march(kernels.kernels.back().source);
      const auto run = static_cast<std::size_t>(3 + factor - 1); // values along x
      std::size_t per_step = d == 3 ? 3 * run : run;
      CHECK(testing::loaded_values(march.loads) == per_step);
      CHECK(testing::loaded_values(march.rest) == 0);
      CHECK(testing::count(march.loads + march.rest, "rhs") == 1);
      CHECK(march.rest.find(march.window + "[0] = " + march.window + "[") != std::string::npos);
    }
    INFO(lowered.summary());
    std::set<std::pair<int64_t, int64_t>> expected{{4, 1}, {4, 2}, {4, 4}};
    if (d == 3)
      expected = {{0, 1}, {4, 1}, {0, 2}, {4, 2}, {0, 4}, {4, 4}};
    CHECK(seen == expected);
  }
}

namespace {

// The derivations (rule names in order) of every lowered variant, with their counts. Placements
// of small inputs in __constant memory are left out: a program with a second input has more
// inputs to place, hence more of them.
std::map<std::string, int> derivations(const rewrite::LoweredVariants& lowered) {
  std::map<std::string, int> all;
  for (const auto& v : lowered.variants) {
    std::string key;
    for (const auto& s : v.history)
      key += s.rule + "; ";
    if (v.mapping)
      key += "mapping: " + rewrite::describe(*v.mapping) + "; ";
    for (const auto& s : v.after_mapping)
      key += s.rule + "; ";
    if (!v.mapping || v.mapping->kind != rewrite::MappingKind::ConstantInput)
      ++all[key];
  }
  return all;
}

} // namespace

// Every rule that applies to a stencil over one input applies to the same stencil with a
// right-hand side zipped to its neighbourhoods: the same derivations, as many of each.
TEST_CASE("a stencil with a zipped right-hand side gets every variant that one input gets") {
  auto weigh = user_fun(
      "weigh", [](auto centre, auto low, auto f) { return (low + f) * 0.25f - centre * 0.125f; });
  for (int d : {2, 3}) {
    CAPTURE(d);
    std::vector<ArithExpr> shape(static_cast<std::size_t>(d), ArithExpr(16));
    Val x = input("x", array_of(f32(), shape));
    Val rhs = input("rhs", array_of(f32(), shape));
    Val nbhs = x | pad_nd(d, 1, 1, clamp) | slide_nd(d, 3, 1);
    auto centre = [=](Val w) { return d == 2 ? w.at(1).at(1) : w.at(1).at(1).at(1); };
    auto low = [=](Val w) { return d == 2 ? w.at(0).at(1) : w.at(1).at(0).at(1); };
    Expr one =
        program({x}, nbhs | map_nd(d, [=](Val w) { return weigh(centre(w), low(w), centre(w)); }));
    Expr zipped = program({x, rhs}, zip_nd(d, {nbhs, rhs}) | map_nd(d, [=](Val t) {
                                      return weigh(centre(t.get(0)), low(t.get(0)), t.get(1));
                                    }));
    rewrite::EnumerateOptions options;
    options.depth = 1;
    auto of_one = explore::executable_variants(one, options);
    auto of_zipped = explore::executable_variants(zipped, options);
    CHECK(derivations(of_one).count("stream-nd; mapping: streaming; ") == 1);
    auto zipped_ways = derivations(of_zipped), one_ways = derivations(of_one);
    for (const auto& [way, count] : one_ways) {
      CAPTURE(way);
      CHECK(zipped_ways[way] == count);
    }
    for (const auto& [way, count] : zipped_ways) {
      CAPTURE(way);
      CHECK(one_ways[way] == count);
    }
    CHECK(of_zipped.rejection_reasons.size() == of_one.rejection_reasons.size());
  }
}
