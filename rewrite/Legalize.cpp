#include "rewrite/Legalize.h"

#include <bitset>

#include "core/Substitute.h"
#include "rewrite/Strategy.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

// Where a node stands: the mappings around it.
struct Place {
  std::bitset<3> glb, wrg, lcl; // dimensions of the enclosing MapGlb, MapWrg, MapLcl
  bool sequential = false;      // inside a work-item's sequential code (MapSeq, Reduce, ...)
  bool intermediate = false;    // computing an intermediate value inside a work-item
  // Computing a value that one work-item holds whole: toPrivate's, or an intermediate inside a
  // MapLcl or MapGlb. A MapLcl there would give each work-item only its own elements of it.
  bool owned_by_work_item = false;

  bool in_work_item() const { return glb.any() || lcl.any() || sequential; }
  bool can_run(MapKind kind, int d) const {
    switch (kind) {
    case MapKind::Glb:
      return !glb[d] && wrg.none() && lcl.none() && !sequential && !intermediate;
    case MapKind::Wrg:
      return !wrg[d] && glb.none() && lcl.none() && !sequential && !intermediate;
    case MapKind::Lcl:
      return wrg.any() && !lcl[d] && !owned_by_work_item;
    default:
      return true;
    }
  }
  // A work-group's buffer: local memory that the work-items of a work-group share.
  bool shares_local() const { return wrg.any() && lcl.none(); }
};

// The place inside the function of a map standing at `at`.
Place inside_map(const Expr& map, Place at) {
  auto d = static_cast<std::size_t>(map->dim);
  switch (map->map_kind) {
  case MapKind::Glb:
    at.glb.set(d);
    break;
  case MapKind::Wrg:
    at.wrg.set(d);
    break;
  case MapKind::Lcl:
    at.lcl.set(d);
    break;
  case MapKind::Seq:
  case MapKind::SeqUnroll:
    at.sequential = true;
    break;
  default:
    break;
  }
  return at;
}

// A function (what a call applies, a map's function) or a value (a call and its arguments).
struct Standing {
  bool function;
  Place place;
};

// Where the node at the end of `at` stands, from the nodes around it (already legalised: the
// strategy goes from the root down): nullopt where the legalisation does not look (a lambda's
// parameters, the values inside a function other than a lambda's body, ...). A program is a
// function; another root a value.
std::optional<Standing> standing(const std::vector<Expr>& enclosing, const Position& at,
                                 const Expr& node) {
  const Expr& root = enclosing.empty() ? node : enclosing.front();
  Standing s{root->kind == NodeKind::Lambda, Place{}};
  for (std::size_t i = 0; i < enclosing.size(); ++i) {
    const Expr& e = enclosing[i];
    auto child = static_cast<std::size_t>(at[i]);
    if (!s.function) {
      // A call: its function stands where it does; the arguments it computes are intermediates
      // when a work-item computes them (views of layout calls are not computed).
      if (e->kind != NodeKind::Call)
        return std::nullopt;
      if (child == 0)
        s.function = true;
      else if (!is_layout_only(e->callee()) && s.place.in_work_item()) {
        s.place.intermediate = true;
        s.place.owned_by_work_item |= s.place.lcl.any() || s.place.glb.any();
      }
      continue;
    }
    switch (e->kind) {
    case NodeKind::Lambda:
      if (child + 1 != e->children.size())
        return std::nullopt;
      s.function = false;
      break;
    case NodeKind::Map:
      s.place = inside_map(e, s.place);
      break;
    case NodeKind::Reduce:
    case NodeKind::Generate:
      if (child != 0)
        return std::nullopt;
      s.place.sequential = true; // one work-item runs the fold or computes the element
      break;
    case NodeKind::ToMem:
      if (child != 0)
        return std::nullopt;
      s.place.owned_by_work_item |= e->space == AddressSpace::Private;
      break;
    case NodeKind::Iterate:
      if (child != 0)
        return std::nullopt;
      break;
    default:
      return std::nullopt;
    }
  }
  return s;
}

// A MapGlb, MapWrg or MapLcl that cannot run where it stands.
bool cannot_run_here(const Expr& node, const std::vector<Expr>& enclosing, const Position& at) {
  if (node->kind != NodeKind::Map)
    return false;
  auto s = standing(enclosing, at, node);
  return s && s->function && !s->place.can_run(node->map_kind, node->dim);
}

// A copy to local memory that no work-group shares (outside MapWrg or inside MapLcl).
bool unshared_local(const Expr& node, const std::vector<Expr>& enclosing, const Position& at) {
  if (node->kind != NodeKind::ToMem || node->space != AddressSpace::Local)
    return false;
  auto s = standing(enclosing, at, node);
  return s && s->function && !s->place.shares_local();
}

} // namespace

const Strategy& legalization() {
  const LoweringRuleSet& rules = lowering_rule_set();
  static const Strategy s =
      everywhere_topdown(choice(where_enclosed(cannot_run_here, rule(rules.demote)),
                                where_enclosed(unshared_local, rule(rules.to_private))));
  return s;
}

Expr legalize_mappings(const Expr& lowered) {
  return *apply(legalization(), lowered);
}

} // namespace tessera::rewrite
