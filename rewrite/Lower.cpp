#include "rewrite/Lower.h"

#include <algorithm>

#include "core/Error.h"
#include "core/Substitute.h"
#include "rewrite/StoreOrder.h"

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

// The dimension of each of the `dims` outer levels of a nest of `levels`: dimension 0 for the
// one stored most contiguously, and so on. Without rearrangements of the result that is the
// innermost of them; unknown rearrangements keep that order.
std::vector<int> global_dims(const Expr& body, const Expr& computed, int levels, int dims) {
  std::vector<int> result;
  for (int l = 0; l < dims; ++l)
    result.push_back(dims - 1 - l);
  auto order = store_order(body, computed, levels);
  if (!order)
    return result;
  int next = 0; // from the contiguous end of the store order
  for (auto it = order->rbegin(); it != order->rend(); ++it)
    if (*it < dims)
      result[static_cast<std::size_t>(*it)] = next++;
  return result;
}

struct Lowerer {
  // The global dimension of each MapGlb level, outermost first (empty: none).
  std::vector<int> level_dims;

  Expr function(const Expr& f, int glb_dims_left) {
    if (is_computing_map(f)) {
      if (glb_dims_left > 0) {
        int dim = level_dims[level_dims.size() - static_cast<std::size_t>(glb_dims_left)];
        return make_map(MapKind::Glb, dim, function(f->children[0], glb_dims_left - 1));
      }
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
  int levels = top ? map_nesting(top) : 0;
  int dims = std::min(3, levels);
  Lowerer lowerer;
  lowerer.level_dims = global_dims(program->body(), computed, levels, dims);
  return make_lambda(program->params(), lowerer.value(program->body(), dims));
}

} // namespace tessera::rewrite
