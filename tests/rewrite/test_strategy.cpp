// Strategies compose rules deterministically; the results compute what the program computes.
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Normalize.h"
#include "rewrite/Strategy.h"
#include "rewrite/rules/Rules.h"
#include "tests/rewrite/NamedRule.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {
bool contains_high_level_map(const Expr& e) {
  if (e->kind == NodeKind::Map && e->map_kind == MapKind::Map &&
      e->children[0]->kind != NodeKind::Transpose && e->children[0]->kind != NodeKind::Slide &&
      e->children[0]->kind != NodeKind::Pad && e->children[0]->kind != NodeKind::Map)
    return true;
  for (const auto& c : e->children)
    if (contains_high_level_map(c))
      return true;
  return false;
}
} // namespace

TEST_CASE("strategies: topdown, repeat, seq, choice, try and at") {
  Val x = input("x", Type::array(f32(), 16));
  auto sq = user_fun("sq", [](auto a) { return a * a; });
  Expr p = beta_normalize(program({x}, x | pad(1, 1, clamp) | slide(3, 1) |
                                           map(reduce(add_fun(), 0.0f)) | map(map(sq))));
  auto inputs = random_inputs(p, 3);
  Data expected = evaluate(p, inputs);
  RuleContext ctx;
  ctx.tile_sizes = {4};

  // Fuse the two top-level maps, then split-join the fused map at the root's body.
  auto fused = apply(topdown(rule(named("map-fusion"))), p, ctx);
  REQUIRE(fused);
  CHECK(evaluate(*fused, inputs) == expected);
  auto tiled =
      apply(seq(topdown(rule(named("map-fusion"))), at({1}, rule(named("split-join")))), p, ctx);
  REQUIRE(tiled);
  CHECK(print(*tiled).find("Split(4)") != std::string::npos);
  CHECK(evaluate(*tiled, inputs) == expected);

  // A rule that cannot apply fails; try_ turns that into the unchanged program; choice falls back.
  CHECK_FALSE(apply(at({1}, rule(named("transpose-cancel"))), p, ctx));
  auto same = apply(try_(at({1}, rule(named("transpose-cancel")))), p, ctx);
  REQUIRE(same);
  CHECK(structurally_equal(*same, p));
  auto fallback = apply(
      choice(at({1}, rule(named("transpose-cancel"))), at({1}, rule(named("split-join")))), p, ctx);
  REQUIRE(fallback);
  CHECK(evaluate(*fallback, inputs) == expected);

  // Lower every high-level computing map sequentially, bottom-up, until none is left.
  auto lowered = apply(repeat(bottomup(rule(named("map-seq")))), p, ctx);
  REQUIRE(lowered);
  CHECK_FALSE(contains_high_level_map(*lowered));
  CHECK(evaluate(*lowered, inputs) == expected);
}
