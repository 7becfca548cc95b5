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

struct Lowerer {
  Expr function(const Expr& f, int glb_dims_left) {
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
      return make_lambda(params, value(f->body(), glb_dims_left));
    }
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
  Expr value(const Expr& e, int glb_dims_left) {
    if (e->kind != NodeKind::Call)
      return e;
    if (e->children.size() == 2 && is_layout_only(e->callee()))
      return with_children(e, {e->callee(), value(e->children[1], glb_dims_left)});
    std::vector<Expr> children{function(e->callee(), glb_dims_left)};
    for (const auto& a : e->call_args())
      children.push_back(value(a, 0));
    return with_children(e, children);
  }
};

} // namespace

Expr lower_sequential(const Expr& f) {
  Lowerer lowerer;
  return f->is_function() ? lowerer.function(f, 0) : lowerer.value(f, 0);
}

Expr lower_default(const Expr& program) {
  if (program->kind != NodeKind::Lambda)
    user_error("lower_default expects a program (a lambda)");
  Expr computed = program->body();
  while (computed->kind == NodeKind::Call && computed->children.size() == 2 &&
         is_layout_only(computed->callee()))
    computed = computed->children[1];
  Expr top = outermost_function(computed);
  int dims = top ? std::min(3, map_nesting(top)) : 0;
  Lowerer lowerer;
  return make_lambda(program->params(), lowerer.value(program->body(), dims));
}

} // namespace tessera::rewrite
