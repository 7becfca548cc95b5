// Algebraic rules: split-join, fusion and fission, cancelling Join/Split and
// Transpose/Transpose, moving Join and Split through Map.
#include "core/Error.h"
#include "core/Fields.h"
#include "core/Substitute.h"
#include "rewrite/Pattern.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

// Map(f) $ x  ->  Join $ Map(Map(f)) $ Split(k) $ x        k divides the length of x
RuleResult split_join(const Expr& e, const RuleContext& ctx) {
  if (!is_computing_map_call(e))
    return RuleResult::none("");
  const ArithExpr& n = ctx.type_of(arg0(e)).length();
  RuleResult r;
  for (int64_t k : ctx.tile_sizes) {
    if (prove_divisible(n, k) != Truth::Yes || prove_lt(k, n) != Truth::Yes)
      continue;
    Expr f = e->callee()->children[0];
    Expr tiled = call1(make_map(MapKind::Map, 0, make_map(MapKind::Map, 0, f)),
                       call1(make_split(k), arg0(e)));
    r.alternatives.push_back({call1(make_join(), tiled), {{"chunk", k}}});
  }
  if (r.alternatives.empty())
    r.why_not = "no candidate chunk size divides the length";
  return r;
}

// Split(k) $ Join $ x -> x  when x : [[T]_k]_m;     Join $ Split(k) $ x -> x
RuleResult join_split_cancel(const Expr& e, const RuleContext& ctx) {
  if (is_call_of(e, NodeKind::Split) && is_call_of(arg0(e), NodeKind::Join)) {
    const Expr& x = arg0(arg0(e));
    if (ctx.type_of(x).element().length() == split_fields(*e->callee()).chunk)
      return {{{x, {}}}, ""};
    return RuleResult::none("the chunk size differs from the joined rows");
  }
  if (is_call_of(e, NodeKind::Join) && is_call_of(arg0(e), NodeKind::Split))
    return {{{arg0(arg0(e)), {}}}, ""};
  return RuleResult::none("");
}

// Transpose $ Transpose $ x -> x
RuleResult transpose_cancel(const Expr& e, const RuleContext&) {
  if (is_call_of(e, NodeKind::Transpose) && is_call_of(arg0(e), NodeKind::Transpose))
    return {{{arg0(arg0(e)), {}}}, ""};
  return RuleResult::none("");
}

// Map(f) $ Map(g) $ x -> Map(f o g) $ x      (both high-level, or both the same OpenCL map)
RuleResult map_fusion(const Expr& e, const RuleContext&) {
  if (!is_call_of(e, NodeKind::Map) || !is_call_of(arg0(e), NodeKind::Map))
    return RuleResult::none("");
  const Expr& f = e->callee();
  const Expr& g = arg0(e)->callee();
  if (f->map_kind != g->map_kind || f->dim != g->dim ||
      (f->map_kind != MapKind::Map && f->map_kind != MapKind::Seq))
    return RuleResult::none("the maps are executed differently");
  Expr fused = make_map(f->map_kind, f->dim, compose2(f->children[0], g->children[0]));
  return {{{call1(fused, arg0(arg0(e))), {}}}, ""};
}

// Map(p => A $ B(p)) -> q => Map(A) $ Map(p => B(p)) $ q      (A does not use p)
// Only inside a function: at kernel level the two maps would need a global barrier.
RuleResult map_fission(const Expr& m, const RuleContext& ctx) {
  if (m->kind != NodeKind::Map || m->map_kind != MapKind::Map)
    return RuleResult::none("");
  const Expr& f = m->children[0];
  if (f->kind != NodeKind::Lambda || f->params().size() != 1)
    return RuleResult::none("");
  const Expr& body = f->body();
  if (body->kind != NodeKind::Call || body->children.size() != 2)
    return RuleResult::none("");
  const Node* p = f->params()[0].get();
  const Expr& outer = body->callee();
  const Expr& inner = arg0(body);
  if (mentions(outer, p) || inner.get() == p || !mentions(inner, p))
    return RuleResult::none("nothing to split off");
  if (!ctx.inside_function)
    return RuleResult::none("at kernel level the two maps would need a global barrier");
  Expr q = make_param();
  Expr first = make_map(MapKind::Map, 0, make_lambda({f->params()[0]}, inner));
  Expr second = make_map(MapKind::Map, 0, outer);
  return {{{make_lambda({q}, call1(second, call1(first, q))), {}}}, ""};
}

// Map(f) $ Join $ x -> Join $ Map(Map(f)) $ x
RuleResult map_join(const Expr& e, const RuleContext&) {
  if (!is_call_of(e, NodeKind::Map) || e->callee()->map_kind != MapKind::Map ||
      !is_call_of(arg0(e), NodeKind::Join))
    return RuleResult::none("");
  Expr inner = call1(make_map(MapKind::Map, 0, e->callee()), arg0(arg0(e)));
  return {{{call1(make_join(), inner), {}}}, ""};
}

// Split(k) $ Map(f) $ x -> Map(Map(f)) $ Split(k) $ x
RuleResult split_map(const Expr& e, const RuleContext&) {
  if (!is_call_of(e, NodeKind::Split) || !is_call_of(arg0(e), NodeKind::Map) ||
      arg0(e)->callee()->map_kind != MapKind::Map)
    return RuleResult::none("");
  const Expr& m = arg0(e);
  Expr moved = call1(make_map(MapKind::Map, 0, m->callee()), call1(e->callee(), arg0(m)));
  return {{{moved, {}}}, ""};
}

} // namespace

std::vector<Rule> explored_algebra_rules() {
  // Each matches a call (is_call_of, is_computing_map_call).
  std::vector<Rule> rules = {
      {"split-join",
       "Map(f) -> Join o Map(Map(f)) o Split(k), k | n",
       split_join,
       {.tiled_dims = [](const Params&) { return 1; }},
       {{.name = "chunk", .source = ParamDomain::Source::TileSizes}}},
      {"join-split-cancel", "Split(k) o Join -> id, Join o Split(k) -> id", join_split_cancel},
      {"transpose-cancel", "Transpose o Transpose -> id", transpose_cancel},
      {"map-fusion", "Map(f) o Map(g) -> Map(f o g)", map_fusion},
  };
  for (auto& r : rules)
    r.node_kinds = {NodeKind::Call};
  return rules;
}

std::vector<Rule> algebra_rules() {
  std::vector<Rule> rules = explored_algebra_rules();
  rules.push_back({"map-fission", "Map(f o g) -> Map(f) o Map(g)", map_fission});
  rules.push_back({"map-join", "Map(f) o Join -> Join o Map(Map(f))", map_join});
  rules.push_back({"split-map", "Split(k) o Map(f) -> Map(Map(f)) o Split(k)", split_map});
  return rules;
}

} // namespace tessera::rewrite
