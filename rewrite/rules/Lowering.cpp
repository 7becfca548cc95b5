// Lowering rules: each high-level Map becomes an OpenCL mapping, each Reduce a sequential one.
// They only change how the code generator distributes the work; the interpreter computes the
// same values for every form. The lowering (rewrite/Lower.h) and the mapping stage
// (rewrite/MapLevels.h) are strategies that apply them.
//   map-glb      Map(f) -> MapGlb(d)(f)               d = 0, 1, 2
//   map-wrg      Map(f) -> MapWrg(d)(f)               d = 0, 1, 2 (one level of work-groups)
//   map-lcl      Map(f) -> MapLcl(d)(f)               d = 0, 1, 2 (work-items of a work-group)
//   map-wrg-lcl  Map(Map(f)) -> MapWrg(d)(MapLcl(d)(f)) d = 0, 1, 2
//   map-seq      Map(f) -> MapSeq(f)
//   map-seq-unroll Map(f) -> MapSeqUnroll(f)          constant length <= 16
//   reduce-seq   Reduce(f, z) -> ReduceSeq(f, z)
//   reduce-seq-unroll Reduce(f, z) $ x -> ReduceSeqUnroll(f, z) $ x  constant length <= 16
//   vectorize-4  the program's Map nest -> MapGlb with 4 neighbouring results per work-item:
//                  Map(...Map(f)...) $ x ->
//                  MapGlb(d-1)(...MapGlb(1)(Join o MapGlb(0)(MapSeqUnroll(f)) o Split(4))...) $ x
//                (the code generator reads and writes the 4 lanes with vload4/vstore4, see
//                codegen/Vector.h)
#include <functional>
#include <map>

#include "core/Error.h"
#include "core/Substitute.h"
#include "core/WorkItemMemory.h"
#include "rewrite/Lower.h"
#include "rewrite/Pattern.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

bool is_high_level_map(const Expr& f) {
  return f->kind == NodeKind::Map && f->map_kind == MapKind::Map;
}

bool is_computing_map(const Expr& f) {
  return is_high_level_map(f) && !is_layout_only(f->children[0]);
}

// Map(f) -> <kind>(d)(f) for every dimension d.
RuleResult map_to(MapKind kind, const Expr& f) {
  if (!is_high_level_map(f))
    return RuleResult::none("");
  RuleResult r;
  for (int d = 0; d < 3; ++d)
    r.alternatives.push_back({make_map(kind, d, f->children[0]), {{"dim", d}}});
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

RuleResult reduce_seq(const Expr& r, const RuleContext&) {
  if (r->kind != NodeKind::Reduce || r->reduce_kind != ReduceKind::Reduce)
    return RuleResult::none("");
  return {{{make_reduce(ReduceKind::Seq, r->children[0], r->children[1]), {}}}, ""};
}

RuleResult reduce_seq_unroll(const Expr& e, const RuleContext& ctx) {
  if (!is_call_of(e, NodeKind::Reduce) || e->callee()->reduce_kind != ReduceKind::Reduce)
    return RuleResult::none("");
  auto n = ctx.type_of(arg0(e)).length().as_constant();
  if (!n || *n > 16)
    return RuleResult::none("the length is not a small constant");
  const Expr& r = e->callee();
  return {
      {{call1(make_reduce(ReduceKind::SeqUnroll, r->children[0], r->children[1]), arg0(e)), {}}},
      ""};
}

// ---- vectorize-4
//
// It rewrites the whole program (it fires at the program's root only): whether the innermost
// computed dimension is contiguous in the output depends on what happens to the result after
// it is computed. Join and Split keep the row-major order; Transpose and the like do not.
// The innermost level of the nest is the Map whose elements are single scalars (f32, or [f32]_1
// as a Reduce leaves it). A length that is a multiple of 4 also makes the first of the 4 results
// of every work-item a multiple of 4 in the output (aligned vector stores). Another constant
// length (61) is padded (clamp) to the next multiple and the padding's results dropped:
// Drop(0,p) o Join o MapGlb(0)(MapSeqUnroll(f)) o Split(4) o Pad(0,p,clamp); the code
// generator stores the last work-item's lanes one by one where they cross the edge.

constexpr int kLanes = 4;

bool is_program(const Expr& e) {
  if (e->kind != NodeKind::Lambda)
    return false;
  for (const auto& p : e->params())
    if (!p->declared_type)
      return false;
  return true;
}

// Rearrangements of a result that keep its row-major order.
bool keeps_order(const Expr& f) {
  switch (f->kind) {
  case NodeKind::Join:
  case NodeKind::Split:
    return true;
  case NodeKind::Map:
    return f->map_kind == MapKind::Map && keeps_order(f->children[0]);
  default:
    return false;
  }
}

// The Map of the next level inside `map`'s function: Map(Map(g)) or Map(p => Map(g) $ a(p)).
Expr inner_map(const Expr& map) {
  const Expr& g = map->children[0];
  if (is_computing_map(g))
    return g;
  if (g->kind == NodeKind::Lambda && g->params().size() == 1 && is_computing_map_call(g->body()))
    return g->body()->callee();
  return {};
}

// Levels from `map` (whose result has type `result`) down to the Map of single scalars; 0 and
// the reason when the nest does not get there.
int nest_depth(const Expr& map, const Type& result, std::string& why) {
  const Type& element = result.element();
  auto count =
      element.innermost().is_scalar() ? element.scalar_count().as_constant() : std::nullopt;
  if (count && *count == 1)
    return 1;
  Expr inner = inner_map(map);
  if (!inner || !element.is_array()) {
    why = cat("the innermost computed elements have type ", element,
              " and are not computed by a nested Map: 4 neighbouring results would not be "
              "contiguous in memory");
    return 0;
  }
  int depth = nest_depth(inner, element, why);
  return depth ? depth + 1 : 0;
}

// `map` applied to `arg` at `level` (0: outermost) of `total`, lowered; the innermost level
// `padding` elements longer (clamp) and those results dropped when its length is not a
// multiple of the lanes.
Expr lower_level(const Expr& map, const Expr& arg, int level, int total, int64_t padding) {
  if (level + 1 == total) {
    // Each lane's function runs in one work-item: its own Maps and Reduces are sequential.
    Expr lanes = make_map(MapKind::Glb, 0,
                          make_map(MapKind::SeqUnroll, 0, lower_sequential(map->children[0])));
    if (padding == 0)
      return call1(make_join(), call1(lanes, call1(make_split(kLanes), arg)));
    Expr padded = call1(make_pad(0, padding, Boundary::clamp()), arg);
    Expr computed = call1(make_join(), call1(lanes, call1(make_split(kLanes), padded)));
    return call1(make_drop(0, padding), computed);
  }
  const Expr& g = map->children[0];
  Expr p, inner, inner_arg;
  if (g->kind == NodeKind::Lambda) {
    p = g->params()[0];
    inner = g->body()->callee();
    inner_arg = arg0(g->body());
  } else {
    p = make_param();
    inner = g;
    inner_arg = p;
  }
  Expr body = lower_level(inner, inner_arg, level + 1, total, padding);
  return call1(make_map(MapKind::Glb, total - 1 - level, make_lambda({p}, body)), arg);
}

RuleResult vectorize_4(const Expr& e, const RuleContext& ctx) {
  if (!is_program(e))
    return RuleResult::none("");
  // The computing call under the rearrangements of the result.
  Expr compute = e->body();
  while (compute->kind == NodeKind::Call && compute->children.size() == 2 &&
         is_layout_only(compute->callee())) {
    if (!keeps_order(compute->callee()))
      return RuleResult::none(cat(kind_name(compute->callee()->kind),
                                  " rearranges the result: its innermost computed dimension is "
                                  "not contiguous in memory"));
    compute = arg0(compute);
  }
  if (!is_computing_map_call(compute))
    return RuleResult::none("the program's result is not computed by a Map");
  const Type& result = ctx.type_of(compute);
  if (!result.innermost().is_scalar() || result.innermost().scalar_kind() == ScalarKind::Bool)
    return RuleResult::none(cat("the result has type ", result,
                                ": only f32, f64, i32 and u8 have OpenCL vector types"));
  std::string why;
  int depth = nest_depth(compute->callee(), result, why);
  if (depth == 0)
    return RuleResult::none(why);
  if (depth > 3)
    return RuleResult::none(cat(depth, " nested Maps: MapGlb has 3 dimensions"));
  Type level = result;
  for (int i = 1; i < depth; ++i)
    level = level.element();
  // A constant innermost length that is not a multiple of the lanes takes a remainder: the
  // level padded to the next multiple, its last work-item's lanes past the end not stored.
  int64_t padding = 0;
  if (prove_divisible(level.length(), kLanes) != Truth::Yes) {
    auto n = level.length().as_constant();
    if (!n || *n < kLanes)
      return RuleResult::none(cat("the innermost length ", level.length().to_string(),
                                  n ? " is less than " : " is not a multiple of ", kLanes));
    padding = (kLanes - *n % kLanes) % kLanes;
  }
  // The earlier steps the call reads are computed whole by every work-item, sequentially.
  if (!fits_one_work_item(
          arg0(compute), [&](const Expr& v) -> const Type& { return ctx.type_of(v); },
          ctx.target.max_private_elements))
    return RuleResult::none(cat("every work-item would compute the earlier steps whole: more "
                                "than ",
                                ctx.target.max_private_elements, " values of private memory"));
  Expr arg = computes(arg0(compute)) ? lower_sequential(arg0(compute)) : arg0(compute);
  Expr lowered = lower_level(compute->callee(), arg, 0, depth, padding);
  std::function<Expr(const Expr&)> rebuild = [&](const Expr& x) -> Expr {
    return x.same_as(compute) ? lowered : call1(x->callee(), rebuild(arg0(x)));
  };
  return {{{make_lambda(e->params(), rebuild(e->body())), {{"lanes", kLanes}}}}, ""};
}

const ParamDomain kDim{"dim", {0, 1, 2}};

Rule map_rule(const char* name, const char* description, MapKind kind) {
  Rule r{name, description, [kind](const Expr& f, const RuleContext&) { return map_to(kind, f); }};
  r.params = {kDim};
  r.reads_types = false;
  return r;
}

} // namespace

const LoweringRuleSet& lowering_rule_set() {
  static const LoweringRuleSet set{
      map_rule("map-glb", "Map(f) -> MapGlb(d)(f)", MapKind::Glb),
      map_rule("map-wrg", "Map(f) -> MapWrg(d)(f): one level of work-groups", MapKind::Wrg),
      map_rule("map-lcl", "Map(f) -> MapLcl(d)(f): the work-items of a work-group", MapKind::Lcl),
      {"map-seq", "Map(f) -> MapSeq(f)", map_seq, {}, {}, false},
      {"map-seq-unroll", "Map(f) -> MapSeqUnroll(f) for a small constant length", map_seq_unroll},
      {"reduce-seq", "Reduce(f, z) -> ReduceSeq(f, z)", reduce_seq, {}, {}, false},
      map_demote_rule(),
      to_private_rule(),
  };
  return set;
}

std::vector<Rule> lowering_rules() {
  const LoweringRuleSet& set = lowering_rule_set();
  Rule wrg_lcl{"map-wrg-lcl", "Map(Map(f)) -> MapWrg(d)(MapLcl(d)(f))", map_wrg_lcl};
  wrg_lcl.params = {kDim};
  wrg_lcl.reads_types = false;
  Rule vectorize{"vectorize-4",
                 "Map(...Map(f)...) -> MapGlb(d-1)(...(Join o MapGlb(0)(MapSeqUnroll(f)) o "
                 "Split(4))) on the program's result: 4 neighbouring results per work-item, "
                 "vload4/vstore4",
                 vectorize_4,
                 {.completes = [](const Params& p) {
                   Mapping m{MappingKind::Vectorized};
                   m.factor = p.at("lanes");
                   return m;
                 }}};
  vectorize.params = {{"lanes", {kLanes}}};
  vectorize.family = "vectorized";
  return {
      set.glb,
      set.wrg,
      set.lcl,
      wrg_lcl,
      set.seq,
      set.seq_unroll,
      set.reduce_seq,
      {"reduce-seq-unroll",
       "Reduce(f, z) $ x -> ReduceSeqUnroll(f, z) $ x for a small constant "
       "length",
       reduce_seq_unroll},
      vectorize,
  };
}

std::vector<Rule> completing_rules() {
  std::vector<Rule> rules;
  for (auto& r : lowering_rules())
    if (r.mapping.completes)
      rules.push_back(r);
  for (auto& r : coarsening_rules())
    rules.push_back(r);
  for (auto& r : placement_rules())
    rules.push_back(r);
  rules.push_back(place_image_rule());
  return rules;
}

std::vector<Rule> all_rules() {
  std::vector<Rule> rules = algebra_rules();
  for (auto& r : tiling_rules())
    rules.push_back(r);
  for (auto& r : temporal_rules())
    rules.push_back(r);
  for (auto& r : time_tiling_rules())
    rules.push_back(r);
  for (auto& r : staging_rules())
    rules.push_back(r);
  for (auto& r : coarsening_rules())
    rules.push_back(r);
  for (auto& r : lowering_rules())
    rules.push_back(r);
  for (auto& r : thread_mapping_rules())
    rules.push_back(r);
  for (auto& r : placement_rules())
    rules.push_back(r);
  return rules;
}

std::string rule_family(const std::string& name) {
  static const std::map<std::string, std::string> families = [] {
    std::map<std::string, std::string> f;
    for (const auto& list : {all_rules(), completing_rules(), {separate_axes_rule()}})
      for (const auto& r : list)
        f.emplace(r.name, r.family);
    return f;
  }();
  auto it = families.find(name);
  return it == families.end() ? "" : it->second;
}

std::vector<Rule> exploration_rules() {
  std::vector<Rule> rules;
  for (auto& r : explored_algebra_rules())
    rules.push_back(r);
  for (auto& r : tiling_rules())
    rules.push_back(r);
  for (auto& r : temporal_rules())
    rules.push_back(r);
  rules.push_back(separate_axes_rule());
  for (auto& r : time_tiling_rules())
    rules.push_back(r);
  for (auto& r : thread_mapping_rules())
    rules.push_back(r);
  return rules;
}

} // namespace tessera::rewrite
