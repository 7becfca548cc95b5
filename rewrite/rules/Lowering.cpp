// Lowering rules: each high-level Map becomes an OpenCL mapping, each Reduce a sequential one.
// They only change how the code generator distributes the work; the interpreter computes the
// same values for every form.
//   map-glb      Map(f) -> MapGlb(d)(f)               d = 0, 1, 2
//   map-wrg-lcl  Map(Map(f)) -> MapWrg(d)(MapLcl(d)(f)) d = 0, 1, 2
//   map-seq      Map(f) -> MapSeq(f)
//   map-seq-unroll Map(f) -> MapSeqUnroll(f)          constant length <= 16
//   reduce-seq   Reduce(f, z) -> ReduceSeq(f, z), ReduceSeqUnroll(f, z) (constant length <= 16)
#include "rewrite/Pattern.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

bool is_high_level_map(const Expr& f) {
  return f->kind == NodeKind::Map && f->map_kind == MapKind::Map;
}

RuleResult map_glb(const Expr& f, const RuleContext&) {
  if (!is_high_level_map(f))
    return RuleResult::none("");
  RuleResult r;
  for (int d = 0; d < 3; ++d)
    r.alternatives.push_back({make_map(MapKind::Glb, d, f->children[0]), {{"dim", d}}});
  return r;
}

RuleResult map_wrg_lcl(const Expr& f, const RuleContext&) {
  if (!is_high_level_map(f) || !is_high_level_map(f->children[0]))
    return RuleResult::none("");
  RuleResult r;
  for (int d = 0; d < 3; ++d)
    r.alternatives.push_back(
        {make_map(MapKind::Wrg, d, make_map(MapKind::Lcl, d, f->children[0]->children[0])),
         {{"dim", d}}});
  return r;
}

RuleResult map_seq(const Expr& f, const RuleContext&) {
  if (!is_high_level_map(f))
    return RuleResult::none("");
  return {{{make_map(MapKind::Seq, 0, f->children[0]), {}}}, ""};
}

// Unrolling needs the length: it is read from the call that applies the map.
RuleResult map_seq_unroll(const Expr& e, const RuleContext& ctx) {
  if (!is_call_of(e, NodeKind::Map) || !is_high_level_map(e->callee()))
    return RuleResult::none("");
  auto n = ctx.type_of(arg0(e)).length().as_constant();
  if (!n || *n > 16)
    return RuleResult::none("the length is not a small constant");
  return {{{call1(make_map(MapKind::SeqUnroll, 0, e->callee()->children[0]), arg0(e)), {}}}, ""};
}

RuleResult reduce_seq(const Expr& e, const RuleContext& ctx) {
  if (!is_call_of(e, NodeKind::Reduce) || e->callee()->reduce_kind != ReduceKind::Reduce)
    return RuleResult::none("");
  const Expr& r = e->callee();
  RuleResult out;
  out.alternatives.push_back(
      {call1(make_reduce(ReduceKind::Seq, r->children[0], r->children[1]), arg0(e)),
       {{"unroll", 0}}});
  auto n = ctx.type_of(arg0(e)).length().as_constant();
  if (n && *n <= 16)
    out.alternatives.push_back(
        {call1(make_reduce(ReduceKind::SeqUnroll, r->children[0], r->children[1]), arg0(e)),
         {{"unroll", 1}}});
  return out;
}

} // namespace

std::vector<Rule> lowering_rules() {
  return {
      {"map-glb", "Map(f) -> MapGlb(d)(f)", map_glb},
      {"map-wrg-lcl", "Map(Map(f)) -> MapWrg(d)(MapLcl(d)(f))", map_wrg_lcl},
      {"map-seq", "Map(f) -> MapSeq(f)", map_seq},
      {"map-seq-unroll", "Map(f) -> MapSeqUnroll(f) for a small constant length", map_seq_unroll},
      {"reduce-seq", "Reduce(f, z) -> ReduceSeq(f, z) | ReduceSeqUnroll(f, z)", reduce_seq},
  };
}

std::vector<Rule> all_rules() {
  std::vector<Rule> rules = algebra_rules();
  for (auto& r : tiling_rules())
    rules.push_back(r);
  for (auto& r : temporal_rules())
    rules.push_back(r);
  for (auto& r : lowering_rules())
    rules.push_back(r);
  return rules;
}

std::vector<Rule> exploration_rules() {
  std::vector<Rule> rules;
  for (auto& r : algebra_rules())
    if (r.name == "split-join" || r.name == "map-fusion" || r.name == "join-split-cancel" ||
        r.name == "transpose-cancel")
      rules.push_back(r);
  for (auto& r : tiling_rules())
    rules.push_back(r);
  for (auto& r : temporal_rules())
    rules.push_back(r);
  return rules;
}

} // namespace tessera::rewrite
