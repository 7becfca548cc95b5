// The staging rules: a neighbourhood staged in private memory gives a kernel with a private copy
// that matches the interpreter on PoCL; a tile staged in local memory computes the same values
// (its kernels, with work-groups, are the "local memory" mappings tested in test_codegen and under
// Oclgrind).
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "rewrite/Normalize.h"
#include "rewrite/Rule.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

const Rule& rule_named(const std::string& name) {
  static const std::vector<Rule> rules = all_rules();
  for (const auto& r : rules)
    if (r.name == name)
      return r;
  FAIL("no rule " << name);
  return rules.front();
}

// The program after applying `rule` at the first node where it fires (then `more` rules in
// order, each at its first position), or null.
Expr apply_first(const Expr& program, const std::vector<std::string>& rules,
                 const std::vector<int64_t>& tiles = {4}) {
  Expr p = beta_normalize(program); // as the enumerator does: no `>>` lambdas in the way
  for (const auto& name : rules) {
    TypeChecker types;
    types.apply(p, input_types(p));
    RuleContext ctx;
    ctx.types = &types;
    ctx.tile_sizes = tiles;
    Expr next;
    for_each_node(p, [&](const Expr& node, const Position& at, bool) {
      if (next)
        return;
      auto r = rule_named(name).apply(node, ctx);
      if (!r.alternatives.empty())
        next = replace_at(p, at, r.alternatives.front().replacement);
    });
    if (!next)
      return {};
    p = next;
  }
  return p;
}

// sum of the (2r+1)^2 neighbourhood, clamped.
Expr program_of_window_sum(Val x, int r) {
  Fun sum = join_nd(2) >> reduce(add_fun(), 0.0f);
  return program({x}, x | pad_nd(2, r, r, clamp) | slide_nd(2, 2 * r + 1, 1) | map_nd(2, sum));
}

} // namespace

TEST_CASE("stage-private puts a stencil's neighbourhood in registers") {
  Expr program = stencils::find_stencil("j2d9pt").build({16, 16});
  Expr staged = apply_first(program, {"stage-private"});
  REQUIRE(staged);
  CHECK(print(staged).find("toPrivate") != std::string::npos);
  auto inputs = random_inputs(program, 4);
  auto kernel = testing::check_kernel(lower_default(staged), inputs, {}, 1e-6);
  CHECK(kernel.source.find("float priv") != std::string::npos);
}

TEST_CASE("stage-local stages an overlapped tile, and stage-private refuses big neighbourhoods") {
  Expr program = stencils::find_stencil("j2d5pt").build({16, 16});
  // Overlapped tiles, then each tile staged, then work-groups over tiles and work-items inside.
  Expr tiled = apply_first(program, {"overlapped-tiling-nd"});
  REQUIRE(tiled);
  Expr staged = apply_first(tiled, {"stage-local"});
  CAPTURE(print(tiled));
  REQUIRE(staged);
  CHECK(print(staged).find("toLocal") != std::string::npos);
  auto inputs = random_inputs(program, 5);
  CHECK(evaluate(staged, inputs).flatten() == evaluate(program, inputs).flatten());
  // A 9x9 neighbourhood (81 scalars) is too big for registers.
  Val x = input("x", array_of(f32(), {16, 16}));
  Expr wide = program_of_window_sum(x, 4);
  CHECK(!apply_first(wide, {"stage-private"}));
}
