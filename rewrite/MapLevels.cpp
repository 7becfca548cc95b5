#include "rewrite/MapLevels.h"

#include <algorithm>
#include <functional>
#include <map>

#include "core/Error.h"
#include "core/Substitute.h"
#include "core/WorkItemMemory.h"
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
};

// The lowering rule that maps a level, with its parameters, at the map's position.
Strategy level_rule(MapKind kind, int dim) {
  const LoweringRuleSet& rules = lowering_rule_set();
  switch (kind) {
  case MapKind::Glb:
    return rule(rules.glb, {{"dim", dim}});
  case MapKind::Wrg:
    return rule(rules.wrg, {{"dim", dim}});
  case MapKind::Lcl:
    return rule(rules.lcl, {{"dim", dim}});
  case MapKind::Seq:
    return rule(rules.seq, {});
  default:
    internal_error(cat("no lowering rule maps a level to ", map_kind_name(kind)));
  }
}

// map-seq-unroll at the map at a position, which is applied to values of type `applied_to` (by
// a call, or inside another map to each element): the rule reads the length from the call it
// sees, a call of the map on a value of that type.
Strategy unroll_applied_to(Type applied_to) {
  return [applied_to](const Expr& program, const Position& at,
                      const RuleContext&) -> std::optional<Expr> {
    Expr x = make_param("", applied_to);
    Expr typed_x = make_lambda({x}, x);
    TypeChecker types;
    types.apply(typed_x, input_types(typed_x));
    RuleContext ctx;
    ctx.types = &types;
    auto unrolled =
        rewrite_with(lowering_rule_set().seq_unroll, call1(node_at(program, at), x), {}, ctx);
    if (!unrolled)
      return std::nullopt;
    return replace_at(program, at, (*unrolled)->callee());
  };
}

// Chooses where the mapping's rules apply (the parameter chooser of the mapping stage): the
// levels to the outermost maps of the computing call (through lambdas whose body applies a
// map), the sequential lowering deeper, place-result to the intermediates a mapped function
// computes. The plan is applied by at_each (rewrite/Strategy.h).
struct LevelPlanner {
  const Levels& m;
  // The high-level program's types, for an unrolled level (the length of the array it maps);
  // null where no level unrolls.
  const TypeChecker* types = nullptr;
  std::vector<std::pair<Position, Strategy>> steps;

  // The type of a value of the high-level program, where the planner has its types.
  const Type* type_in(const Expr& value) const { return types ? &types->type_of(value) : nullptr; }

  // Assigns the mapping from `level` on to the maps of f (at `at`); deeper maps run
  // sequentially. `applied_to`: the type of what f is applied to, where known. False when f
  // has fewer maps than levels.
  bool assign(const Expr& f, const Position& at, std::size_t level, const Type* applied_to) {
    if (level == m.levels.size()) {
      steps.emplace_back(at, sequential_lowering());
      return true;
    }
    auto [kind, dim] = m.levels[level];
    if (f->kind == NodeKind::Map && f->map_kind == MapKind::Map) {
      const Type* element = applied_to && applied_to->is_array() ? &applied_to->element() : nullptr;
      if (!assign(f->children[0], child(at, 0), level + 1, element))
        return false;
      if (kind != MapKind::SeqUnroll)
        steps.emplace_back(at, level_rule(kind, dim));
      else if (applied_to) // the results of one streaming step
        steps.emplace_back(at, unroll_applied_to(*applied_to));
      else
        return false;
      return true;
    }
    if (f->kind == NodeKind::Lambda && f->params().size() == 1 &&
        f->body()->kind == NodeKind::Call && f->body()->children.size() == 2) {
      Position body = child(at, f->children.size() - 1);
      return assign(f->body()->callee(), child(body, 0), level, type_in(arg0(f->body()))) &&
             intermediates(arg0(f->body()), child(body, 1), level);
    }
    return false;
  }

  // The intermediate computations in the argument of a mapped function (the earlier time steps
  // of a temporally tiled tile) run on the same work-items, their results placed in local
  // memory between MapLcl levels and in private memory for a sequential work-item.
  bool intermediates(const Expr& e, const Position& at, std::size_t level) {
    if (e->kind != NodeKind::Call)
      return true;
    for (std::size_t i = 1; i < e->children.size(); ++i)
      if (!intermediates(e->children[i], child(at, i), level))
        return false;
    const Expr& f = e->callee();
    if (f->kind != NodeKind::Map || f->map_kind != MapKind::Map || is_layout_only(f))
      return true;
    if (!assign(f, child(at, 0), level, e->children.size() == 2 ? type_in(arg0(e)) : nullptr))
      return false;
    bool local = level < m.levels.size() && m.levels[level].first == MapKind::Lcl;
    // Local memory is the work-group's: only an intermediate that the whole work-group computes
    // (its MapLcl right inside the MapWrg) can live there. Inside another MapLcl, each work-item
    // of that MapLcl has its own tile, and one buffer for all of them would be a race.
    if (local && !(level > 0 && m.levels[level - 1].first == MapKind::Wrg))
      return false;
    static const Rule place = place_result_rule();
    AddressSpace space = local ? AddressSpace::Local : AddressSpace::Private;
    steps.emplace_back(at, rule(place, {{"space", static_cast<int64_t>(space)}}));
    return true;
  }

  static Position child(Position at, std::size_t i) {
    at.push_back(static_cast<int>(i));
    return at;
  }
};

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
      if (i == dims.size())
        return f;
      return rewrite_node(lowering_rule_set().lcl,
                          make_map(MapKind::Map, 0, lcl(f->children[0], i + 1)),
                          {{"dim", dims[i]}});
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
Expr apply_levels(const Expr& program, const Levels& m, const Target& target) {
  Position at{static_cast<int>(program->children.size()) - 1};
  Expr compute = program->body();
  while (compute->kind == NodeKind::Call && compute->children.size() == 2 &&
         is_layout_only(compute->callee())) {
    compute = arg0(compute);
    at.push_back(1);
  }
  if (compute->kind != NodeKind::Call || compute->children.size() != 2)
    return {};
  LevelPlanner planner{m};
  TypeChecker types;
  bool unrolls = std::count_if(m.levels.begin(), m.levels.end(),
                               [](const auto& l) { return l.first == MapKind::SeqUnroll; });
  // The earlier steps that the call reads are computed whole by every work-item (sequentially):
  // the mapping does not apply when they do not fit its private memory.
  const Expr& argument = arg0(compute);
  bool earlier_steps = computes(argument);
  if (unrolls || earlier_steps)
    types.apply(program, input_types(program));
  if (earlier_steps && !fits_one_work_item(
                           argument, [&](const Expr& e) -> const Type& { return types.type_of(e); },
                           target.max_private_elements))
    return {};
  if (unrolls)
    planner.types = &types;
  if (!planner.assign(compute->callee(), LevelPlanner::child(at, 0), 0,
                      planner.type_in(arg0(compute))))
    return {};
  planner.steps.emplace_back(LevelPlanner::child(at, 1), sequential_lowering());
  auto lowered = rewrite::apply(at_each(std::move(planner.steps)), program);
  if (!lowered)
    return {};
  return m.stage_local ? stage_tiles(*lowered, m) : *lowered;
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
      if (m.factor)
        l.levels.push_back({MapKind::SeqUnroll, 0});
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

Expr apply_mapping(const Expr& program, const Mapping& mapping, const Target& target) {
  return apply_levels(program, levels_of(mapping), target);
}

} // namespace tessera::rewrite
