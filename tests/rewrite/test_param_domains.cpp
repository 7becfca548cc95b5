// Declared parameter domains and the lowering as strategies over the lowering rules: every
// alternative a rule offers on the catalog's programs has parameters its declaration admits, a
// strategy asks for an alternative by its parameters (and is refused outside the domain), and
// the sequential lowering (everywhere map-seq | reduce-seq) computes what the program computes.
#include <doctest/doctest.h>

#include <set>

#include "core/Error.h"
#include "core/RandomData.h"
#include "core/Substitute.h"
#include "dsl/Dsl.h"
#include "rewrite/Enumerate.h"
#include "rewrite/Lower.h"
#include "rewrite/Normalize.h"
#include "rewrite/Strategy.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "tests/rewrite/NamedRule.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

// Counts the nodes of `e` that satisfy `pred`.
template <class P> int count_nodes(const Expr& e, const P& pred) {
  int n = pred(e) ? 1 : 0;
  for (const auto& c : e->children)
    n += count_nodes(c, pred);
  return n;
}

bool is_map_of(const Expr& e, MapKind kind) {
  return e->kind == NodeKind::Map && e->map_kind == kind;
}

} // namespace

TEST_CASE("every alternative of a rule that declares its parameters lies in their domains") {
  EnumerateOptions options;
  options.depth = 1;
  options.plane_sums_min_points = 7; // j3d7pt's partial sums and their rows too
  RuleContext ctx;
  ctx.plane_sums_min_points = options.plane_sums_min_points;
  ctx.tile_sizes = options.tile_sizes;
  ctx.coarsening = options.coarsening;
  ctx.temporal_steps = options.temporal_steps;
  ctx.row_blocking = options.row_blocking;
  ctx.target.images = {true, 8192, 8192, 2048, 2048, 2048};
  std::vector<Rule> rules = all_rules();
  for (const auto& r : completing_rules())
    rules.push_back(r);
  std::set<std::string> exercised;
  bool rows_offered = false;
  for (const char* name : {"j2d5pt", "j3d7pt", "gsrb3d", "prolong3d"}) {
    const auto& info = stencils::find_stencil(name);
    Expr program = info.build(std::vector<ArithExpr>(static_cast<std::size_t>(info.dims), 16));
    // The high-level variants (where the lowering rules apply) and the lowered ones.
    std::vector<Expr> programs;
    for (const auto& v : enumerate(program, exploration_rules(), options).variants)
      programs.push_back(v.program);
    for (const auto& v : lowered_variants(program, options).variants)
      programs.push_back(v.program);
    for (const Expr& p : programs) {
      TypeChecker types;
      types.apply(p, input_types(p));
      ctx.types = &types;
      for (const auto& rule : rules) {
        if (rule.params.empty())
          continue;
        for_each_node(p, [&](const Expr& node, const Position&, bool inside) {
          ctx.inside_function = inside;
          for (const auto& alt : rule.apply(node, ctx).alternatives) {
            CHECK_NOTHROW(check_params(rule, alt.params, ctx));
            exercised.insert(rule.name);
            rows_offered |= alt.params.count("rows") > 0;
          }
        });
      }
    }
  }
  for (const char* name : {"map-glb", "map-wrg", "map-lcl", "glb-order", "stage-local",
                           "coarsen-nd", "vectorize-4", "place-image", "split-join"})
    CHECK_MESSAGE(exercised.count(name), name << " was never applied");
  CHECK(rows_offered); // stream-nd's rows=8 lies outside the coarsening factors {2, 4}
}

TEST_CASE("a strategy picks an alternative by its declared parameters") {
  Val x = input("x", Type::array(Type::array(f32(), 8), 8));
  auto sq = user_fun("sq", [](auto a) { return a * a; });
  Expr p = beta_normalize(program({x}, x | map(map(sq))));
  auto inputs = random_inputs(p, 5);
  Data expected = evaluate(p, inputs);
  const LoweringRuleSet& rules = lowering_rule_set();

  auto glb1 = rewrite::apply(at({1, 0}, rule(rules.glb, {{"dim", 1}})), p);
  REQUIRE(glb1);
  Expr outer = node_at(*glb1, {1, 0});
  CHECK(is_map_of(outer, MapKind::Glb));
  CHECK(outer->dim == 1);
  CHECK(evaluate(*glb1, inputs) == expected);

  // Outside the domain, an undeclared parameter, a required one missing: refused by name.
  CHECK_THROWS_WITH_AS(rewrite::apply(at({1, 0}, rule(rules.glb, {{"dim", 3}})), p),
                       "map-glb: dim=3 is outside its domain", Error);
  CHECK_THROWS_WITH_AS(rewrite::apply(at({1, 0}, rule(rules.glb, {{"tile", 4}})), p),
                       "map-glb: no parameter \"tile\"", Error);
  CHECK_THROWS_AS(rewrite::apply(at({1, 0}, rule(rules.glb, {})), p), Error);
  // A domain from the context: a coarsening factor that is not a candidate is refused.
  Rule coarsen = named("coarsen-nd");
  RuleContext ctx;
  ctx.coarsening = {2};
  CHECK_NOTHROW(check_params(coarsen, {{"dim", 0}, {"factor", 2}}, ctx));
  CHECK_THROWS_AS(check_params(coarsen, {{"dim", 0}, {"factor", 4}}, ctx), Error);
  // A rule that reads types cannot be asked for on a fragment.
  CHECK_THROWS_AS(rewrite_with(coarsen, p, {{"dim", 0}, {"factor", 2}}, ctx), Error);
}

TEST_CASE("the sequential lowering applies map-seq and reduce-seq everywhere") {
  Val x = input("x", Type::array(f32(), 32));
  auto sq = user_fun("sq", [](auto a) { return a * a; });
  Expr p = beta_normalize(program({x}, x | pad(1, 1, clamp) | slide(3, 1) |
                                           map(reduce(add_fun(), 0.0f)) | join() | split(4) |
                                           map(map(sq)) | join()));
  auto inputs = random_inputs(p, 11);
  Data expected = evaluate(p, inputs);
  Expr lowered = lower_sequential(p);
  CHECK(count_nodes(lowered, [](const Expr& e) { return is_map_of(e, MapKind::Seq); }) == 3);
  CHECK(count_nodes(lowered, [](const Expr& e) {
          return e->kind == NodeKind::Reduce && e->reduce_kind == ReduceKind::Seq;
        }) == 1);
  CHECK(count_nodes(lowered, [](const Expr& e) {
          return e->kind == NodeKind::Reduce && e->reduce_kind == ReduceKind::Reduce;
        }) == 0);
  CHECK(evaluate(lowered, inputs) == expected);

  // The default lowering: the outer nest by map-glb, the rest by the sequential strategy.
  Expr global = lower_default(p);
  CHECK(count_nodes(global, [](const Expr& e) { return is_map_of(e, MapKind::Glb); }) >= 1);
  CHECK(count_nodes(global, [](const Expr& e) { return is_map_of(e, MapKind::Map); }) ==
        count_nodes(global,
                    [](const Expr& e) { return is_map_of(e, MapKind::Map) && is_layout_only(e); }));
  CHECK(evaluate(global, inputs) == expected);
}

TEST_CASE("place-result puts a computed array in local or private memory, values unchanged") {
  Val x = input("x", Type::array(f32(), 16));
  auto sq = user_fun("sq", [](auto a) { return a * a; });
  Expr p = beta_normalize(program({x}, x | map(sq) | map(sq)));
  auto inputs = random_inputs(p, 7);
  Data expected = evaluate(p, inputs);
  const Rule place = place_result_rule();
  RuleContext ctx;
  int placed = 0;
  for_each_node(p, [&](const Expr& node, const Position& at, bool) {
    for (const auto& alt : place.apply(node, ctx).alternatives) {
      CHECK_NOTHROW(check_params(place, alt.params, ctx));
      Expr q = replace_at(p, at, alt.replacement);
      CHECK(count_nodes(q, [](const Expr& e) { return e->kind == NodeKind::ToMem; }) == 1);
      CHECK(evaluate(q, inputs) == expected);
      ++placed;
    }
  });
  CHECK(placed == 4); // two computing Map calls, local or private each
  CHECK_THROWS_AS(rewrite_with(place, node_at(p, {1}), {{"space", 0}}, ctx), Error);
}
