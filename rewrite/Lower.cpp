#include "rewrite/Lower.h"

#include <algorithm>

#include "core/Error.h"
#include "core/Substitute.h"

namespace tessera::rewrite {

namespace {

bool is_computing_map(const Expr& f) {
  return f->kind == NodeKind::Map && f->map_kind == MapKind::Map && !is_layout_only(f->children[0]);
}

// The function a value expression finally applies (through lambdas), if any.
Expr outermost_function(const Expr& e) {
  if (e->kind != NodeKind::Call)
    return {};
  return e->callee();
}

// Number of directly nested computing Maps starting at f (Map(Map(f)) -> 2).
int map_nesting(const Expr& f) {
  if (is_computing_map(f)) {
    const Expr& g = f->children[0];
    if (g->kind == NodeKind::Lambda) {
      Expr inner = outermost_function(g->body());
      return 1 + (inner ? map_nesting(inner) : 0);
    }
    return 1 + map_nesting(g);
  }
  if (f->kind == NodeKind::Lambda) {
    Expr inner = outermost_function(f->body());
    return inner ? map_nesting(inner) : 0;
  }
  return 0;
}

// The number of global dimensions a whole-array computation gets: its outermost nest of
// computing Maps (through the layout calls that rearrange its result), at most 3.
int global_dims(const Expr& value) {
  Expr computed = value;
  while (computed->kind == NodeKind::Call && computed->children.size() == 2 &&
         is_layout_only(computed->callee()))
    computed = computed->children[1];
  Expr top = outermost_function(computed);
  return top ? std::min(3, map_nesting(top)) : 0;
}

struct Lowerer {
  // `stage`: f is applied to a whole array in the program's data flow (not inside another
  // computation's function), so that its arguments' computations and the steps of an Iterate
  // are stages of their own with their own global mapping (one launch each, codegen/Stages.h).
  Expr function(const Expr& f, int glb_dims_left, bool stage = false) {
    if (is_computing_map(f)) {
      if (glb_dims_left > 0)
        return make_map(MapKind::Glb, glb_dims_left - 1,
                        function(f->children[0], glb_dims_left - 1));
      return make_map(MapKind::Seq, 0, function(f->children[0], 0));
    }
    switch (f->kind) {
    case NodeKind::Reduce:
      if (f->reduce_kind == ReduceKind::Reduce)
        return make_reduce(ReduceKind::Seq, function(f->children[0], 0), f->children[1]);
      break;
    case NodeKind::Lambda: {
      auto params = f->params();
      return make_lambda(params, value(f->body(), glb_dims_left, stage));
    }
    case NodeKind::Iterate:
      if (stage && !is_layout_only(f)) {
        // Every step is a launch of its own: the step's own mapping.
        const Expr& step = f->children[0];
        int dims = step->kind == NodeKind::Lambda ? global_dims(step->body())
                                                  : std::min(3, map_nesting(step));
        return with_children(f, {function(step, dims, true)});
      }
      break;
    default:
      break;
    }
    if (f->children.empty())
      return f;
    std::vector<Expr> children;
    for (const auto& c : f->children)
      children.push_back(c->is_function() ? function(c, 0) : c);
    return with_children(f, children);
  }

  // Only the value the program returns keeps the global dimensions; arguments are data.
  // Rearrangements of the result (Join, Transpose, ...) pass them on to what they rearrange.
  // In a stage, an argument that is itself a whole-array computation is a stage too.
  Expr value(const Expr& e, int glb_dims_left, bool stage = false) {
    if (e->kind != NodeKind::Call)
      return e;
    if (e->children.size() == 2 && is_layout_only(e->callee()))
      return with_children(e, {e->callee(), value(e->children[1], glb_dims_left, stage)});
    std::vector<Expr> children{function(e->callee(), glb_dims_left, stage)};
    for (const auto& a : e->call_args())
      children.push_back(stage ? argument_stage(a) : value(a, 0));
    return with_children(e, children);
  }

  // An argument in the program's data flow: layout calls pass it on; a computation under them
  // is lowered as a stage with its own global dimensions.
  Expr argument_stage(const Expr& a) {
    if (a->kind != NodeKind::Call)
      return a;
    if (is_layout_only(a->callee())) {
      std::vector<Expr> children{a->callee()};
      for (const auto& x : a->call_args())
        children.push_back(argument_stage(x));
      return with_children(a, children);
    }
    return value(a, global_dims(a), true);
  }
};
bool has_work_groups(const Expr& e) {
  if (e->kind == NodeKind::Map && e->map_kind == MapKind::Wrg)
    return true;
  return std::any_of(e->children.begin(), e->children.end(), has_work_groups);
}

// toLocal(f) -> toPrivate(f): without work-groups each work-item computes its own copy, which is
// what private memory holds (local memory belongs to a work-group).
Expr local_to_private(const Expr& e) {
  std::vector<Expr> children;
  bool changed = false;
  for (const auto& c : e->children) {
    children.push_back(local_to_private(c));
    changed |= !children.back().same_as(c);
  }
  if (e->kind == NodeKind::ToMem && e->space == AddressSpace::Local)
    return make_to_mem(AddressSpace::Private, children[0]);
  return changed ? with_children(e, std::move(children)) : e;
}

} // namespace

Expr lower_sequential(const Expr& f) {
  Lowerer lowerer;
  return f->is_function() ? lowerer.function(f, 0) : lowerer.value(f, 0);
}

Expr lower_default(const Expr& program) {
  if (program->kind != NodeKind::Lambda)
    user_error("lower_default expects a program (a lambda)");
  Lowerer lowerer;
  Expr lowered = make_lambda(program->params(),
                             lowerer.value(program->body(), global_dims(program->body()), true));
  return has_work_groups(lowered) ? lowered : local_to_private(lowered);
}

} // namespace tessera::rewrite
