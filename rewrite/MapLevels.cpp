#include "rewrite/MapLevels.h"

#include <algorithm>
#include <functional>
#include <map>

#include "core/Error.h"
#include "core/Substitute.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Lower.h"
#include "rewrite/Pattern.h"
#include "rewrite/Rule.h"
#include "rewrite/Strategy.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

// The computing call under the layout operations that only rearrange the result (Join,
// Transpose, Map of those), with the path of those operations.
Expr find_compute(const Expr& e) {
  Expr cur = e;
  while (cur->kind == NodeKind::Call && cur->children.size() == 2 && is_layout_only(cur->callee()))
    cur = arg0(cur);
  return cur;
}

namespace {

// The map levels a mapping assigns to the computing call's outermost maps.
struct Levels {
  std::vector<std::pair<MapKind, int>> levels; // outermost first
  bool stage_local = false; // copy each work-group's input tile to local memory first
  // The high-level program's types, for map-seq-unroll (the length of the array an unrolled
  // level maps); set by apply_levels where a level unrolls.
  const TypeChecker* types = nullptr;
};

Expr map_intermediates(const Expr& e, const Levels& m, std::size_t level);

// The type of a value of the high-level program, where the levels have its types.
const Type* type_in(const Levels& m, const Expr& value) {
  return m.types ? &m.types->type_of(value) : nullptr;
}

// Map(f) with the mapping of a level, by its lowering rule. An unrolled level (the results of
// one streaming step) needs the type of the array the map is applied to: map-seq-unroll sees
// the map applied to an input of that type. Null when the rule does not apply.
Expr map_level(MapKind kind, int dim, const Expr& f, const Type* applied_to = nullptr) {
  const LoweringRuleSet& rules = lowering_rule_set();
  Expr map = make_map(MapKind::Map, 0, f);
  switch (kind) {
  case MapKind::Glb:
    return rewrite_node(rules.glb, map, {{"dim", dim}});
  case MapKind::Wrg:
    return rewrite_node(rules.wrg, map, {{"dim", dim}});
  case MapKind::Lcl:
    return rewrite_node(rules.lcl, map, {{"dim", dim}});
  case MapKind::Seq:
    return rewrite_node(rules.seq, map);
  case MapKind::SeqUnroll: {
    if (!applied_to)
      return {};
    Expr x = make_param("", *applied_to);
    Expr typed_x = make_lambda({x}, x);
    TypeChecker types;
    types.apply(typed_x, input_types(typed_x));
    RuleContext ctx;
    ctx.types = &types;
    auto unrolled = rewrite_with(rules.seq_unroll, call1(map, x), {}, ctx);
    return unrolled ? (*unrolled)->callee() : Expr();
  }
  default:
    internal_error(cat("no lowering rule maps a level to ", map_kind_name(kind)));
  }
}

// Assigns the mapping to the outermost maps of f (through lambdas whose body applies a map);
// deeper maps run sequentially. Returns null when f has fewer maps than levels.
// `applied_to`: the type of what f is applied to, where known (m.types).
Expr assign(const Expr& f, const Levels& m, std::size_t level, const Type* applied_to = nullptr) {
  if (level == m.levels.size())
    return lower_sequential(f);
  auto [kind, dim] = m.levels[level];
  if (f->kind == NodeKind::Map && f->map_kind == MapKind::Map) {
    const Type* element = applied_to && applied_to->is_array() ? &applied_to->element() : nullptr;
    Expr inner = assign(f->children[0], m, level + 1, element);
    return inner ? map_level(kind, dim, inner, applied_to) : Expr();
  }
  if (f->kind == NodeKind::Lambda && f->params().size() == 1 && f->body()->kind == NodeKind::Call &&
      f->body()->children.size() == 2) {
    Expr g = assign(f->body()->callee(), m, level, type_in(m, arg0(f->body())));
    if (!g)
      return {};
    Expr p = f->params()[0];
    Expr arg = arg0(f->body());
    Expr mapped_arg = map_intermediates(arg, m, level);
    return mapped_arg ? make_lambda({p}, call1(g, mapped_arg)) : Expr();
  }
  return {};
}

// The intermediate computations in the argument of a mapped function (the earlier time steps
// of a temporally tiled tile) run on the same work-items, their results staged in local memory
// between MapLcl levels and in private memory for a sequential work-item.
Expr map_intermediates(const Expr& e, const Levels& m, std::size_t level) {
  if (e->kind != NodeKind::Call)
    return e;
  std::vector<Expr> children{e->callee()};
  for (const auto& a : e->call_args()) {
    children.push_back(map_intermediates(a, m, level));
    if (!children.back())
      return {};
  }
  const Expr& f = e->callee();
  if (f->kind == NodeKind::Map && f->map_kind == MapKind::Map && !is_layout_only(f)) {
    Expr mapped = assign(f, m, level, e->children.size() == 2 ? type_in(m, arg0(e)) : nullptr);
    if (!mapped)
      return {};
    bool local = level < m.levels.size() && m.levels[level].first == MapKind::Lcl;
    // Local memory is the work-group's: only an intermediate that the whole work-group computes
    // (its MapLcl right inside the MapWrg) can live there. Inside another MapLcl, each work-item
    // of that MapLcl has its own tile, and one buffer for all of them would be a race.
    if (local && !(level > 0 && m.levels[level - 1].first == MapKind::Wrg))
      return {};
    children[0] = mapped;
    static const Rule place = place_result_rule();
    AddressSpace space = local ? AddressSpace::Local : AddressSpace::Private;
    return rewrite_node(place, with_children(e, children),
                        {{"space", static_cast<int64_t>(space)}});
  }
  return with_children(e, children);
}

// The copies to local memory that stage-local put in e (ToMem of a high-level Map nest), their
// maps given to the work-items by map-lcl, the outermost the first of `dims`. A copy shared by
// several reads (one per component of a zipped tile) stays shared.
Expr lcl_copies(const Expr& e, const std::vector<int>& dims, std::map<const Node*, Expr>& done) {
  if (auto it = done.find(e.get()); it != done.end())
    return it->second;
  Expr result = e;
  if (e->kind == NodeKind::ToMem && e->children[0]->kind == NodeKind::Map &&
      e->children[0]->map_kind == MapKind::Map) {
    std::function<Expr(const Expr&, std::size_t)> lcl = [&](const Expr& f, std::size_t i) {
      return i == dims.size() ? f : map_level(MapKind::Lcl, dims[i], lcl(f->children[0], i + 1));
    };
    result = with_children(e, {lcl(e->children[0], 0)});
  } else {
    std::vector<Expr> children;
    bool changed = false;
    for (const auto& c : e->children) {
      children.push_back(lcl_copies(c, dims, done));
      changed |= !children.back().same_as(c);
    }
    if (changed)
      result = with_children(e, std::move(children));
  }
  done.emplace(e.get(), result);
  return result;
}

// The local-memory mapping's staging: stage-local at the innermost MapWrg (whose function
// applies the work-items' MapLcl levels), so that each work-group copies its tile to local
// memory once, the copy distributed over its work-items. The program as it is when the
// work-items read no tile; null when the tile's levels are not the work-items'.
Expr stage_tiles(const Expr& program, const Levels& m) {
  std::optional<Position> at;
  for_each_node(program, [&](const Expr& node, const Position& pos, bool) {
    if (at || node->kind != NodeKind::Map || node->map_kind != MapKind::Wrg)
      return;
    const Expr& f = node->children[0];
    if (f->kind == NodeKind::Lambda && f->body()->kind == NodeKind::Call &&
        f->body()->callee()->kind == NodeKind::Map && f->body()->callee()->map_kind == MapKind::Lcl)
      at = pos;
  });
  if (!at)
    return program;
  TypeChecker types;
  types.apply(program, input_types(program));
  RuleContext ctx;
  ctx.types = &types;
  static const Rule stage_local = stage_local_rule();
  RuleResult staged = stage_local.apply(node_at(program, *at), ctx);
  if (staged.alternatives.empty())
    return program;
  std::vector<int> dims;
  for (const auto& [kind, dim] : m.levels)
    if (kind == MapKind::Lcl)
      dims.push_back(dim);
  const Alternative& alt = staged.alternatives.front();
  if (alt.params.at("levels") != static_cast<int64_t>(dims.size()))
    return {};
  std::map<const Node*, Expr> done;
  return replace_at(program, *at, lcl_copies(alt.replacement, dims, done));
}

// The program with its computing call mapped as `m`, or null.
Expr apply_levels(const Expr& program, Levels m) {
  Expr compute = find_compute(program->body());
  if (compute->kind != NodeKind::Call || compute->children.size() != 2)
    return {};
  TypeChecker types;
  if (std::count_if(m.levels.begin(), m.levels.end(),
                    [](const auto& l) { return l.first == MapKind::SeqUnroll; })) {
    types.apply(program, input_types(program));
    m.types = &types;
  }
  Expr f = assign(compute->callee(), m, 0, type_in(m, arg0(compute)));
  if (!f)
    return {};
  Expr lowered_arg = lower_sequential(arg0(compute));
  Expr mapped = call1(f, lowered_arg);
  // Rebuild the layout chain above the computing call.
  std::function<Expr(const Expr&)> rebuild = [&](const Expr& e) -> Expr {
    if (e.same_as(compute))
      return mapped;
    return call1(e->callee(), rebuild(arg0(e)));
  };
  Expr lowered = make_lambda(program->params(), rebuild(program->body()));
  return m.stage_local ? stage_tiles(lowered, m) : lowered;
}

// The levels of a tiled or streaming mapping. Tiled (d tiled dimensions): the outermost level
// gets the highest dimension, so that dimension 0 (neighbouring work-items) walks the
// innermost, contiguous index. Streaming: a grid of work-items around the marching map, which
// is sequential; dimension 0 walks x (columns x segments in 2-D; y x x, and z-segments in
// dimension 2, in 3-D), and the results of one step along x (factor) are unrolled, so that the
// window stays in registers.
Levels levels_of(const Mapping& m) {
  Levels l;
  const int d = m.dims;
  switch (m.kind) {
  case MappingKind::WorkGroups:
  case MappingKind::LocalMemory:
    for (int i = 0; i < d; ++i)
      l.levels.push_back({MapKind::Wrg, d - 1 - i});
    for (int i = 0; i < d; ++i)
      l.levels.push_back({MapKind::Lcl, d - 1 - i});
    l.stage_local = m.kind == MappingKind::LocalMemory;
    return l;
  case MappingKind::CoarsenedTiles:
    for (int i = 0; i < d; ++i)
      l.levels.push_back({MapKind::Glb, d - 1 - i});
    for (int i = 0; i < d; ++i)
      l.levels.push_back({MapKind::Seq, 0});
    return l;
  case MappingKind::Streaming:
    if (d == 2) {
      l.levels = {{MapKind::Glb, 0}, {MapKind::Glb, 1}, {MapKind::Seq, 0}};
      return l;
    }
    l.levels = {{MapKind::Glb, 1}, {MapKind::Glb, 0}};
    if (m.segment)
      l.levels.push_back({MapKind::Glb, 2});
    l.levels.push_back({MapKind::Seq, 0});
    if (m.factor)
      l.levels.push_back({MapKind::SeqUnroll, 0});
    return l;
  default:
    internal_error(cat("the ", mapping_kind_name(m.kind), " mapping has no map levels"));
  }
}

} // namespace

Expr apply_mapping(const Expr& program, const Mapping& mapping) {
  return apply_levels(program, levels_of(mapping));
}

} // namespace tessera::rewrite
