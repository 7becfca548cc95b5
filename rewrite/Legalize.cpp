#include "rewrite/Legalize.h"

#include <bitset>

#include "core/Substitute.h"

namespace tessera::rewrite {

namespace {

// Where a node stands: the mappings around it.
struct Place {
  std::bitset<3> glb, wrg, lcl; // dimensions of the enclosing MapGlb, MapWrg, MapLcl
  bool sequential = false;      // inside a work-item's sequential code (MapSeq, Reduce, ...)
  bool intermediate = false;    // computing an intermediate value inside a work-item

  bool in_work_item() const { return glb.any() || lcl.any() || sequential; }
  bool can_run(MapKind kind, int d) const {
    switch (kind) {
    case MapKind::Glb:
      return !glb[d] && wrg.none() && lcl.none() && !sequential && !intermediate;
    case MapKind::Wrg:
      return !wrg[d] && glb.none() && lcl.none() && !sequential && !intermediate;
    case MapKind::Lcl:
      return wrg.any() && !lcl[d];
    default:
      return true;
    }
  }
};

Expr function(const Expr& f, Place at);

// A value: its function stands where the value does; the arguments it computes are
// intermediates when a work-item computes them (views of layout calls are not computed).
Expr value(const Expr& e, const Place& at) {
  if (e->kind != NodeKind::Call)
    return e;
  Place args = at;
  if (!is_layout_only(e->callee()) && at.in_work_item())
    args.intermediate = true;
  std::vector<Expr> children{function(e->callee(), at)};
  for (const auto& a : e->call_args())
    children.push_back(value(a, args));
  return with_children(e, std::move(children));
}

Expr function(const Expr& f, Place at) {
  switch (f->kind) {
  case NodeKind::Lambda: {
    std::vector<Expr> children = f->params();
    children.push_back(value(f->body(), at));
    return with_children(f, std::move(children));
  }
  case NodeKind::Map: {
    MapKind kind = f->map_kind;
    int d = f->dim;
    if (!at.can_run(kind, d))
      kind = MapKind::Seq, d = 0;
    Place inside = at;
    if (kind == MapKind::Glb)
      inside.glb.set(static_cast<std::size_t>(d));
    else if (kind == MapKind::Wrg)
      inside.wrg.set(static_cast<std::size_t>(d));
    else if (kind == MapKind::Lcl)
      inside.lcl.set(static_cast<std::size_t>(d));
    else if (kind == MapKind::Seq || kind == MapKind::SeqUnroll)
      inside.sequential = true;
    Expr body = function(f->children[0], inside);
    if (kind == f->map_kind && body.same_as(f->children[0]))
      return f;
    return make_map(kind, kind == f->map_kind ? f->dim : 0, body);
  }
  case NodeKind::ToMem: {
    Expr body = function(f->children[0], at);
    bool shared = at.wrg.any() && at.lcl.none(); // a work-group's buffer
    AddressSpace space =
        f->space == AddressSpace::Local && !shared ? AddressSpace::Private : f->space;
    return space == f->space && body.same_as(f->children[0]) ? f : make_to_mem(space, body);
  }
  case NodeKind::Reduce:
  case NodeKind::Generate: {
    Place inside = at;
    inside.sequential = true; // one work-item runs the fold or computes the element
    std::vector<Expr> children = f->children;
    children[0] = function(children[0], inside);
    return with_children(f, std::move(children));
  }
  case NodeKind::Iterate: {
    std::vector<Expr> children{function(f->children[0], at)};
    return with_children(f, std::move(children));
  }
  default:
    return f;
  }
}

} // namespace

Expr legalize_mappings(const Expr& lowered) {
  if (lowered->kind != NodeKind::Lambda)
    return value(lowered, Place{});
  return function(lowered, Place{});
}

} // namespace tessera::rewrite
