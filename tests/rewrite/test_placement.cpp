// place-constant: small read-only inputs in __constant memory, within the device's limits; the
// kernels match the interpreter on PoCL, and the placement survives JSON and is part of a
// variant's identity.
#include <doctest/doctest.h>

#include "compile/ExecutableVariants.h"
#include "core/Json.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "rewrite/Rule.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

// A 2-D 3x3 stencil whose nine weights are an input.
Expr weighted_stencil(int64_t n) {
  Val x = input("x", array_of(f32(), {n, n}));
  Val w = input("weights", array_of(f32(), {3, 3}));
  auto mul = user_fun("mul", [](auto a, auto b) { return a * b; });
  Fun point([=](Val nbh) {
    Val sum = mul(nbh.at(0).at(0), w.at(0).at(0));
    auto add = add_fun();
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        if (a || b)
          sum = add(sum, mul(nbh.at(a).at(b), w.at(a).at(b)));
    return sum;
  });
  return program({x, w}, x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, point));
}

RuleResult place(const Expr& program, int64_t max_bytes, int max_args) {
  static const Rule rule = placement_rules().front();
  TypeChecker types;
  types.apply(program, input_types(program));
  RuleContext ctx;
  ctx.types = &types;
  ctx.target.max_constant_bytes = max_bytes;
  ctx.target.max_constant_args = max_args;
  return rule.apply(program, ctx);
}

} // namespace

TEST_CASE("place-constant puts inputs that fit in __constant memory; kernels match") {
  const int64_t n = 24;
  Expr program = lower_default(weighted_stencil(n));
  auto inputs = random_inputs(program, 5);
  // 64 KiB hold both the 24x24 grid (2304 bytes) and the 36 bytes of weights.
  auto both = place(program, 64 * 1024, 8);
  REQUIRE(both.alternatives.size() == 2);
  for (const auto& alt : both.alternatives) {
    CAPTURE(alt.params.at("input"));
    auto kernel = testing::check_kernel(alt.replacement, inputs);
    std::string name = alt.params.at("input") == 0 ? "x" : "weights";
    CHECK(kernel.source.find("__constant float* restrict " + name) != std::string::npos);
    CHECK_FALSE(structurally_equal(alt.replacement, program));
    // The placement is saved with the program.
    Expr back = load_expr(save_expr(alt.replacement));
    CHECK(structurally_equal(back, alt.replacement));
    CHECK(codegen::generate_kernel(back).source == kernel.source);
    // A placement the loader does not know is an error that says which ones exist.
    std::string text = save_expr(alt.replacement);
    text.replace(text.find("\"Constant\""), 10, "\"Local\"");
    CHECK_THROWS_WITH_AS(load_expr(text), doctest::Contains("\"Global\" or \"Constant\""), Error);
  }
  // A limit of 1 KiB leaves the weights only; with both placed, nothing is left to place.
  auto small = place(program, 1024, 8);
  REQUIRE(small.alternatives.size() == 1);
  CHECK(small.alternatives[0].params.at("input") == 1);
  CHECK(place(small.alternatives[0].replacement, 1024, 8).alternatives.empty());
  // One __constant argument: once the weights are there, the grid may not follow.
  auto one = place(both.alternatives[1].replacement, 64 * 1024, 1);
  CHECK(one.alternatives.empty());
  CHECK(one.why_not.find("__constant arguments") != std::string::npos);
}

TEST_CASE("the lowered variants include the constant placements, and computed results are "
          "refused in constant memory") {
  EnumerateOptions options;
  options.depth = 0;
  auto variants = explore::executable_variants(weighted_stencil(16), options);
  int placed = 0;
  for (const auto& v : variants.variants) {
    REQUIRE(v.mapping);
    if (v.mapping->kind == rewrite::MappingKind::ConstantInput) {
      CHECK(describe(*v.mapping).find("in constant memory") != std::string::npos);
      ++placed;
    }
  }
  CHECK(placed == 2);
  CHECK_THROWS_WITH_AS(make_to_mem(AddressSpace::Constant, make_transpose()),
                       doctest::Contains("program inputs"), Error);
  Expr p = make_param("x", f32());
  CHECK_THROWS_AS(make_placed_input(p, AddressSpace::Constant), Error);
}
