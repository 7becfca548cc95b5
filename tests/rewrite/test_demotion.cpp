// The legalisation's demotion rules (map-demote, to-private) applied by a strategy that reads
// the enclosing mappings, and the strategy combinators that plans and conditions on where a
// node stands need (everywhere_topdown, where_enclosed, rule_with, at_each), and the mapping
// plan that at_each applies (an unrolled level).
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Legalize.h"
#include "rewrite/MapLevels.h"
#include "rewrite/Normalize.h"
#include "rewrite/Strategy.h"
#include "rewrite/rules/Rules.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

Fun halve_f32() {
  return user_fun("halve", [](auto a) { return a * 0.5f; });
}

// The program legalised; it computes what the program computes.
Expr legalized(const Expr& p) {
  Expr result = legalize_mappings(p);
  auto inputs = random_inputs(p, 11);
  CHECK(evaluate(result, inputs) == evaluate(p, inputs));
  return result;
}

bool is_map(const Expr& e, MapKind kind) {
  return e->kind == NodeKind::Map && e->map_kind == kind;
}

} // namespace

TEST_CASE("demotion rules: map-demote and to-private rewrite one node and declare no parameters") {
  const LoweringRuleSet& rules = lowering_rule_set();
  Expr fn = halve_f32().build({f32()});
  Expr f = make_map(MapKind::Lcl, 1, make_map(MapKind::Map, 0, make_map(MapKind::Glb, 0, fn)));
  auto demoted = rewrite_with(rules.demote, f, {}, {});
  REQUIRE(demoted);
  CHECK(is_map(*demoted, MapKind::Seq));
  CHECK((*demoted)->children[0].same_as(f->children[0])); // only the node itself
  // A high-level Map or a sequential one is no parallel mapping.
  CHECK(rules.demote.apply(f->children[0], {}).alternatives.empty());
  CHECK(rules.demote.apply(*demoted, {}).alternatives.empty());
  CHECK(rules.demote.params.empty());
  CHECK_FALSE(rules.demote.reads_types);

  Expr copy = make_to_mem(AddressSpace::Local, make_map(MapKind::Seq, 0, fn));
  auto priv = rewrite_with(rules.to_private, copy, {}, {});
  REQUIRE(priv);
  CHECK((*priv)->space == AddressSpace::Private);
  CHECK(rules.to_private.apply(*priv, {}).alternatives.empty());
}

TEST_CASE("legalize: a MapLcl outside any MapWrg becomes MapSeq, toLocal outside a work-group "
          "toPrivate, and a legal program is unchanged") {
  Val x = input("x", array_of(f32(), {4, 8}));
  Expr lcl_alone = program({x}, x | map_lcl(0, map_seq(halve_f32())));
  CHECK(print(legalized(lcl_alone)) == print(program({x}, x | map_seq(map_seq(halve_f32())))));
  Expr lcl_in_glb = program({x}, x | map_glb(1, map_lcl(0, halve_f32())));
  CHECK(print(legalized(lcl_in_glb)) == print(program({x}, x | map_glb(1, map_seq(halve_f32())))));

  Expr in_work_item =
      program({x}, x | map_glb(0, Fun([](Val row) {
                                 return row | to_local(map_seq(halve_f32())) | map_seq(halve_f32());
                               })));
  std::string priv = print(legalized(in_work_item));
  CHECK(priv.find("toLocal") == std::string::npos);
  CHECK(priv.find("toPrivate") != std::string::npos);

  // A work-group's copy shared by its work-items, and a nest that can run, stay as they are.
  Expr shared = program({x}, x | map_wrg(0, Fun([](Val row) {
                                           return row | to_local(map_lcl(0, halve_f32())) |
                                                  map_lcl(0, halve_f32());
                                         })));
  CHECK(legalize_mappings(shared).same_as(shared));
  Expr nest = program({x}, x | map_glb(1, map_glb(0, halve_f32())));
  CHECK(legalize_mappings(nest).same_as(nest));
  // Inside a MapLcl the copy is each work-item's own.
  Val cube = input("cube", array_of(f32(), {2, 4, 8}));
  Expr per_item =
      program({cube}, cube | map_wrg(0, map_lcl(0, Fun([](Val row) {
                                                  return row | to_local(map_seq(halve_f32())) |
                                                         map_seq(halve_f32());
                                                }))));
  std::string item = print(legalized(per_item));
  CHECK(item.find("toLocal") == std::string::npos);
  CHECK(item.find("MapLcl(0)") != std::string::npos);
}

TEST_CASE("strategies: everywhere_topdown sees its parents rewritten, everywhere does not; "
          "where_enclosed reads the enclosing nodes") {
  Val x = input("x", Type::array(Type::array(f32(), 8), 6));
  Expr p = beta_normalize(program({x}, x | map(map(halve_f32()))));
  auto inputs = random_inputs(p, 3);
  const LoweringRuleSet& rules = lowering_rule_set();
  // map-glb at a high-level Map that no MapGlb encloses.
  PlaceCondition outside_glb = [](const Expr& node, const std::vector<Expr>& enclosing,
                                  const Position& at) {
    CHECK(enclosing.size() == at.size());
    if (!is_map(node, MapKind::Map))
      return false;
    for (const auto& e : enclosing)
      if (is_map(e, MapKind::Glb))
        return false;
    return true;
  };
  Strategy glb0 = where_enclosed(outside_glb, rule(rules.glb, {{"dim", 0}}));
  auto top = rewrite::apply(everywhere_topdown(glb0), p);
  REQUIRE(top);
  CHECK(is_map(node_at(*top, {1, 0}), MapKind::Glb));
  CHECK(is_map(node_at(*top, {1, 0, 0}), MapKind::Map)); // its parent was already MapGlb
  auto bottom = rewrite::apply(everywhere(glb0), p);
  REQUIRE(bottom);
  CHECK(is_map(node_at(*bottom, {1, 0, 0}), MapKind::Glb)); // visited before its parent
  CHECK(evaluate(*top, inputs) == evaluate(p, inputs));
  CHECK(enclosing_nodes(p, {1, 0}).size() == 2);
  CHECK(enclosing_nodes(p, {1, 0})[1].same_as(p->body()));
  CHECK_THROWS_AS(enclosing_nodes(p, {1, 5}), Error);
}

TEST_CASE("strategies: rule_with takes the parameters a chooser gives; at_each applies a plan "
          "deepest first and fails with a step") {
  Val x = input("x", Type::array(Type::array(f32(), 8), 6));
  Expr p = beta_normalize(program({x}, x | map(map(halve_f32()))));
  auto inputs = random_inputs(p, 3);
  const LoweringRuleSet& rules = lowering_rule_set();
  // The outer level gets dimension 1, the inner dimension 0 (by depth).
  ParamChooser by_depth = [](const Expr&, const Position& at) -> std::optional<Params> {
    if (at.size() < 2)
      return std::nullopt;
    return Params{{"dim", at.size() == 2 ? 1 : 0}};
  };
  auto chosen = rewrite::apply(everywhere(rule_with(rules.glb, by_depth)), p);
  REQUIRE(chosen);
  CHECK(node_at(*chosen, {1, 0})->dim == 1);
  CHECK(node_at(*chosen, {1, 0, 0})->dim == 0);
  CHECK(evaluate(*chosen, inputs) == evaluate(p, inputs));
  ParamChooser outside = [](const Expr&, const Position&) -> std::optional<Params> {
    return Params{{"dim", 3}};
  };
  CHECK_THROWS_AS(rewrite::apply(at({1, 0}, rule_with(rules.glb, outside)), p), Error);

  // Given outer first, applied inner first: place-result wraps the callee of the call at [1]
  // (moving the map to [1, 0, 0]) only after the maps below it are mapped.
  static const Rule place = place_result_rule();
  auto planned = rewrite::apply(
      at_each({{{1}, rule(place, {{"space", static_cast<int64_t>(AddressSpace::Private)}})},
               {{1, 0}, rule(rules.glb, {{"dim", 1}})},
               {{1, 0, 0}, rule(rules.seq, {})}}),
      p);
  REQUIRE(planned);
  CHECK(print(*planned).find("toPrivate(MapGlb(1)(MapSeq(halve)))") != std::string::npos);
  CHECK(evaluate(*planned, inputs) == evaluate(p, inputs));
  // A step that does not apply (map-seq at a call) fails the plan.
  CHECK_FALSE(rewrite::apply(
      at_each({{{1, 0}, rule(rules.glb, {{"dim", 0}})}, {{1}, rule(rules.seq, {})}}), p));
}

TEST_CASE("mapping plan: an unrolled level inside another map (no call applies it) unrolls, one "
          "that a call applies too") {
  // Streaming levels of 3 dimensions with a factor: MapGlb(1), MapGlb(0), MapSeq, MapSeqUnroll.
  Mapping streaming{MappingKind::Streaming};
  streaming.dims = 3;
  streaming.factor = 2;
  Val x = input("x", array_of(f32(), {3, 4, 5, 2}));
  Expr nested = program({x}, x | map(map(map(map(halve_f32())))));
  auto inputs = random_inputs(nested, 5);
  Expr mapped = apply_mapping(nested, streaming);
  REQUIRE(mapped);
  CHECK(print(mapped).find("MapGlb(1)(MapGlb(0)(MapSeq(MapSeqUnroll(halve))))") !=
        std::string::npos);
  CHECK(evaluate(mapped, inputs) == evaluate(nested, inputs));

  Expr called = program({x}, x | map(map(map(Fun([](Val v) { return v | map(halve_f32()); })))));
  Expr mapped_call = apply_mapping(called, streaming);
  REQUIRE(mapped_call);
  CHECK(print(mapped_call).find("MapSeqUnroll(halve)") != std::string::npos);
  CHECK(evaluate(mapped_call, inputs) == evaluate(called, inputs));
  // A length that is not a small constant does not unroll: the mapping does not apply.
  Val long_x = input("x", array_of(f32(), {3, 4, 5, 32}));
  CHECK_FALSE(
      apply_mapping(program({long_x}, long_x | map(map(map(map(halve_f32()))))), streaming));
}
