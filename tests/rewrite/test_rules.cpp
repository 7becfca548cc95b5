// Every rule preserves the semantics: for each rule, at least 200 random well-typed programs
// where it applies evaluate to the same result under the interpreter before and after.
// Every rule also has a case where it fires and a case where it does not, with the reason.
#include <doctest/doctest.h>

#include "core/RandomData.h"
#include "rewrite/Enumerate.h"
#include "rewrite/Lower.h"
#include "rewrite/rules/Rules.h"
#include "tests/Helpers.h"
#include "tests/rewrite/RandomPrograms.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

// Applies `rule` wherever it fires in random programs until `wanted` rewrites were checked.
int check_rule_on_random_programs(const Rule& rule, int wanted, uint32_t seed) {
  std::mt19937 rng(seed);
  int checked = 0;
  for (int attempt = 0; attempt < 4000 && checked < wanted; ++attempt) {
    // Temporal, diamond, parallelogram and rolling tiling and 2.5-D blocking need several steps
    // of one stencil.
    bool multistep = rule.name == "temporal-tiling" || rule.name == "diamond-tiling" ||
                     rule.name == "parallelogram-tiling" || rule.name == "rolling-tiling" ||
                     rule.name == "stream-temporal";
    auto rp = multistep ? testing::random_multistep_program(rng) : testing::random_program(rng);
    // glb-order reorders the MapGlb nest of a lowered program.
    if (rule.name == "glb-order")
      rp.program = lower_default(rp.program);
    TypeChecker types;
    types.apply(rp.program, input_types(rp.program));
    RuleContext ctx;
    ctx.types = &types;
    ctx.tile_sizes = {2, 3, 4, 8};
    ctx.temporal_steps = {2, 3, 4};
    ctx.coarsening = {2, 4};
    if (rule.name == "rolling-tiling") { // a CPU's form
      ctx.target.kind = DeviceKind::CPU;
      ctx.target.local_memory_bytes = 1 << 20;
    }
    auto inputs = random_inputs(rp.program, seed + attempt);
    Data expected = evaluate(rp.program, inputs);
    for_each_node(rp.program, [&](const Expr& node, const Position& at, bool inside) {
      if (checked >= wanted)
        return;
      ctx.inside_function = inside;
      RuleResult r = rule.apply(node, ctx);
      for (const auto& alt : r.alternatives) {
        Expr rewritten = replace_at(rp.program, at, alt.replacement);
        CAPTURE(rp.family);
        CAPTURE(print(rp.program));
        CAPTURE(print(rewritten));
        Data got = evaluate(rewritten, inputs);
        CHECK(got.flatten() == expected.flatten());
        ++checked;
      }
    });
  }
  return checked;
}

const Rule& rule_named(const std::string& name) {
  static const std::vector<Rule> rules = all_rules();
  for (const auto& r : rules)
    if (r.name == name)
      return r;
  FAIL("no rule " << name);
  return rules.front();
}

} // namespace

TEST_CASE("every rule preserves the semantics on 200 random programs where it applies") {
  uint32_t seed = 1;
  for (const auto& rule : all_rules()) {
    CAPTURE(rule.name);
    int checked = check_rule_on_random_programs(rule, 200, seed++ * 1000);
    CHECK(checked >= 200);
  }
}

TEST_CASE("rules fire where their pattern matches and explain why not otherwise") {
  Val x = input("x", Type::array(f32(), 12));
  Expr stencil = program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map(reduce(add_fun(), 0.0f)));
  TypeChecker types;
  types.apply(stencil, input_types(stencil));
  RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = {4, 5};
  const Expr& body = stencil->body(); // Map(...) $ Slide $ Pad $ x
  RuleResult split = rule_named("split-join").apply(body, ctx);
  REQUIRE(split.alternatives.size() == 1); // 4 divides 12, 5 does not
  CHECK(split.alternatives[0].params.at("chunk") == 4);
  ctx.tile_sizes = {5, 7};
  RuleResult none = rule_named("split-join").apply(body, ctx);
  CHECK(none.alternatives.empty());
  CHECK(none.why_not.find("divides") != std::string::npos);
  RuleResult fission = rule_named("map-fission").apply(body, ctx);
  CHECK(fission.alternatives.empty()); // Reduce applied directly: nothing to split off
  ctx.tile_sizes = {4};
  const Expr& slide_call = body->children[1];
  RuleResult tiled = rule_named("slide-tiling").apply(slide_call, ctx);
  REQUIRE(tiled.alternatives.size() == 1);
  // 12 windows in tiles of 5 with a remainder: the input padded to 15 windows, 3 dropped.
  ctx.tile_sizes = {5};
  RuleResult remainder = rule_named("slide-tiling").apply(slide_call, ctx);
  REQUIRE(remainder.alternatives.size() == 1);
  CHECK(print(remainder.alternatives[0].replacement).find("Drop(0,3)") != std::string::npos);
  CHECK(evaluate(make_lambda(stencil->params(),
                             with_children(
                                 body, {body->children[0], remainder.alternatives[0].replacement})),
                 {testing::random_f32({12}, 4)})
            .flatten() == evaluate(stencil, {testing::random_f32({12}, 4)}).flatten());
  ctx.tile_sizes = {16}; // no tile smaller than the 12 windows
  CHECK(rule_named("slide-tiling").apply(slide_call, ctx).why_not.find("fits") !=
        std::string::npos);
}

TEST_CASE("overlapped tiling tiles zipped inputs: windows with halos, plain inputs without") {
  Val x = input("x", array_of(f32(), {8, 12}));
  Val y = input("y", array_of(f32(), {8, 12}));
  Val rhs = input("rhs", array_of(f32(), {8, 12}));
  auto f = user_fun("f", [](auto a, auto b, auto c) { return a * 0.5 + b * 0.25 + c; });
  auto windows = [](Val v) { return v | pad_nd(2, 1, 1, mirror) | slide_nd(2, 3, 1); };
  Expr p = rewrite::beta_normalize(program(
      {x, y, rhs}, zip_nd(2, {windows(x), windows(y), rhs}) |
                       map_nd(2, Fun([&](Val t) {
                                return f(t.get(0).at(1).at(1), t.get(1).at(0).at(1), t.get(2));
                              }))));
  TypeChecker types;
  types.apply(p, input_types(p));
  RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = {2, 4, 5};
  auto r = rule_named("overlapped-tiling-nd").apply(p->body(), ctx);
  REQUIRE(r.alternatives.size() == 2); // 2 and 4 divide 8 and 12
  auto inputs = random_inputs(p, 3);
  auto expected = evaluate(p, inputs).flatten();
  for (const auto& alt : r.alternatives)
    CHECK(evaluate(make_lambda(p->params(), alt.replacement), inputs).flatten() == expected);
}
