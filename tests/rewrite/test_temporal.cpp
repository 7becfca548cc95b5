// Overlapped temporal tiling: the fused form keeps every step's boundary (padding the input once
// does not), and its lowered kernels run on PoCL and match the interpreter. The property test
// over random multi-step programs is in test_rules.cpp with the other rules.
#include <doctest/doctest.h>

#include "compile/ExecutableVariants.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Rule.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Iterated.h"
#include "stencils/Thesis.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

const Rule& temporal_rule() {
  static const std::vector<Rule> rules = temporal_rules();
  return rules.front();
}

// The alternatives of the rule at the program's body.
std::vector<Alternative> fused_forms(const Expr& program, std::vector<int64_t> steps,
                                     std::vector<int64_t> tiles) {
  TypeChecker types;
  types.apply(program, input_types(program));
  RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = std::move(tiles);
  ctx.temporal_steps = std::move(steps);
  return temporal_rule().apply(program->body(), ctx).alternatives;
}

Expr with_body(const Expr& program, const Expr& body) {
  return make_lambda(program->params(), body);
}

} // namespace

TEST_CASE("temporal tiling keeps the per-step boundary; padding the input once does not") {
  const int n = 16;
  Val x = input("x", Type::array(f32(), n));
  Fun sum3 = Fun([](Val w) { return (w | reduce(add_fun(), 0.0f)).at(0); });
  auto step = [&](Val v) { return v | pad(1, 1, clamp) | slide(3, 1) | map(sum3); };
  Expr two_steps = program({x}, step(step(x)));
  auto inputs = random_inputs(two_steps, 5);
  Data expected = evaluate(two_steps, inputs);

  // The thesis's Listing 3.3 pads once by 2: the two outermost results on each side differ.
  Data padded_once = evaluate(stencils::temporal_tiling_1d(n), inputs);
  auto a = expected.flatten(), b = padded_once.flatten();
  REQUIRE(a.size() == b.size());
  CHECK(a[0] != doctest::Approx(b[0]));
  CHECK(a[n - 1] != doctest::Approx(b[n - 1]));
  CHECK(a[n / 2] == doctest::Approx(b[n / 2]));

  auto fused = fused_forms(two_steps, {2}, {4, 8});
  REQUIRE(fused.size() == 2);
  for (const auto& alt : fused) {
    Expr p = with_body(two_steps, alt.replacement);
    CAPTURE(print(p));
    CHECK(evaluate(p, inputs).flatten() == a);
  }
}

TEST_CASE("temporal tiling fuses up to the number of matched steps, with every boundary") {
  for (Boundary b : {clamp, mirror, wrap, constant(0.5f)}) {
    CAPTURE(b.to_string());
    Val x = input("x", array_of(f32(), {8, 12}));
    Val rhs = input("rhs", array_of(f32(), {8, 12}));
    auto f = user_fun("f", [](auto n, auto w, auto c, auto e, auto s, auto r) {
      return (n + w + 2.0 * c + e + s) * 0.125 + r;
    });
    auto step = [&](Val v) {
      Val windows = v | pad_nd(2, 1, 1, b) | slide_nd(2, 3, 1);
      return zip_nd(2, {windows, rhs}) | map_nd(2, Fun([&](Val t) {
                                                  Val w = t.get(0);
                                                  return f(w.at(0).at(1), w.at(1).at(0),
                                                           w.at(1).at(1), w.at(1).at(2),
                                                           w.at(2).at(1), t.get(1));
                                                }));
    };
    Val v = x;
    for (int s = 0; s < 3; ++s)
      v = step(v);
    Expr three = program({x, rhs}, v);
    auto inputs = random_inputs(three, 9);
    auto expected = evaluate(three, inputs).flatten();
    auto fused = fused_forms(three, {2, 3, 4}, {2, 4, 5});
    // k = 2 and 3 (only three steps), tiles 2 and 4 (5 divides neither extent).
    REQUIRE(fused.size() == 4);
    for (const auto& alt : fused) {
      CAPTURE(alt.params.at("steps"));
      CAPTURE(alt.params.at("tile"));
      Expr p = with_body(three, alt.replacement);
      CHECK(evaluate(p, inputs).flatten() == expected);
    }
  }
}

TEST_CASE("temporal tiling explains why it does not apply") {
  Val x = input("x", Type::array(f32(), 12));
  Fun sum3 = Fun([](Val w) { return (w | reduce(add_fun(), 0.0f)).at(0); });
  Expr one = program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map(sum3));
  TypeChecker types;
  types.apply(one, input_types(one));
  RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = {4};
  ctx.temporal_steps = {2};
  auto r = temporal_rule().apply(one->body(), ctx);
  CHECK(r.alternatives.empty());
  CHECK(r.why_not.find("single stencil step") != std::string::npos);
  Expr two = stencils::iterate_program(one, 2);
  ctx.tile_sizes = {5, 7};
  TypeChecker types2;
  types2.apply(two, input_types(two));
  ctx.types = &types2;
  r = temporal_rule().apply(two->body(), ctx);
  CHECK(r.alternatives.empty());
  CHECK(r.why_not.find("divides") != std::string::npos);
}

TEST_CASE("temporally tiled kernels of iterated catalog stencils run on PoCL") {
  struct Case {
    const char* stencil;
    std::vector<ArithExpr> extents;
    int steps;
  };
  for (const Case& c :
       {Case{"j2d5pt", {16, 16}, 2}, Case{"j2d5pt", {16, 16}, 3}, Case{"j2d5pt", {16, 16}, 4},
        Case{"j3d7pt", {8, 8, 8}, 2}, Case{"j1d3pt", {32}, 3}}) {
    std::string name = c.stencil;
    CAPTURE(name);
    CAPTURE(c.steps);
    Expr program = stencils::iterated_stencil(c.stencil, c.extents, c.steps);
    EnumerateOptions options;
    options.depth = 1;
    options.tile_sizes = {4};
    options.temporal_steps = {c.steps};
    auto variants = explore::executable_variants(program, options);
    auto inputs = random_inputs(program, 3);
    int temporal = 0;
    for (const auto& v : variants.variants) {
      bool fused = false;
      for (const auto& s : v.history)
        fused |= s.rule == "temporal-tiling";
      if (!fused)
        continue;
      ++temporal;
      CAPTURE(print(v.program));
      testing::check_kernel(v.program, inputs, {}, 1e-5);
    }
    MESSAGE(name << " x" << c.steps << ": " << temporal << " temporally tiled kernels checked");
    CHECK(temporal >= 2); // work-groups with local memory, and coarsened work-items
  }
}

TEST_CASE("temporal tiles too big for one work-item's private memory are rejected, not run") {
  Expr program = stencils::iterated_stencil("j2d5pt", {64, 256}, 4);
  EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {32};
  options.temporal_steps = {4};
  auto variants = explore::executable_variants(program, options);
  bool rejected = false;
  for (const auto& [reason, count] : variants.rejection_reasons)
    rejected |= reason.find("[[f32]_130]_34 would need a private array of 4420 elements") !=
                std::string::npos;
  // The coarsened 32x128 tile: 38x134 first-step and 34x130 second-step values per work-item,
  // refused before the code generator (rewrite::lowered_variants, core/WorkItemMemory.h).
  CHECK(rejected);
}
