#include "rewrite/Lower.h"

#include <algorithm>

#include "core/Error.h"
#include "core/Substitute.h"
#include "rewrite/Legalize.h"
#include "rewrite/StoreOrder.h"
#include "rewrite/Strategy.h"
#include "rewrite/rules/Rules.h"

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

// The global dimensions of a whole-array computation, one per level of its outermost nest of
// computing Maps (through the layout calls that rearrange its result, at most 3), outermost
// level first, chosen by store order.
std::vector<int> stage_dims(const Expr& value) {
  Expr computed = value;
  while (computed->kind == NodeKind::Call && computed->children.size() == 2 &&
         is_layout_only(computed->callee()))
    computed = computed->children[1];
  Expr top = outermost_function(computed);
  int levels = top ? map_nesting(top) : 0;
  return global_dims(value, computed, levels, std::min(3, levels));
}

// The global dimensions of an Iterate step (a function applied to the whole array).
std::vector<int> step_dims(const Expr& step) {
  if (step->kind == NodeKind::Lambda)
    return stage_dims(step->body());
  int dims = std::min(3, map_nesting(step));
  std::vector<int> result;
  for (int l = 0; l < dims; ++l)
    result.push_back(dims - 1 - l);
  return result;
}

struct Lowerer {
  // The global dimension of each MapGlb level of the current stage, outermost first (empty:
  // none).
  std::vector<int> level_dims;

  // Runs `lower` with the global dimensions of a stage of its own, then restores the current
  // stage's.
  template <class F> Expr in_stage(std::vector<int> dims, F lower) {
    std::swap(level_dims, dims);
    Expr result = lower(static_cast<int>(level_dims.size()));
    std::swap(level_dims, dims);
    return result;
  }

  // `stage`: f is applied to a whole array in the program's data flow (not inside another
  // computation's function), so that its arguments' computations and the steps of an Iterate
  // are stages of their own with their own global mapping (one launch each, codegen/Stages.h).
  Expr function(const Expr& f, int glb_dims_left, bool stage = false) {
    // Without global dimensions left, only a stage's lambda and Iterate map anything globally.
    bool has_stages = stage && (f->kind == NodeKind::Lambda || f->kind == NodeKind::Iterate);
    if ((glb_dims_left == 0 && !has_stages) || f->kind == NodeKind::Reduce)
      return lower_sequential(f);
    if (is_computing_map(f)) {
      int dim = level_dims[level_dims.size() - static_cast<std::size_t>(glb_dims_left)];
      return rewrite_node(lowering_rule_set().glb,
                          with_children(f, {function(f->children[0], glb_dims_left - 1)}),
                          {{"dim", dim}});
    }
    switch (f->kind) {
    case NodeKind::Lambda: {
      auto params = f->params();
      return make_lambda(params, value(f->body(), glb_dims_left, stage));
    }
    case NodeKind::Iterate:
      if (stage && !is_layout_only(f)) {
        // Every step is a launch of its own: the step's own mapping.
        const Expr& step = f->children[0];
        return with_children(
            f, {in_stage(step_dims(step), [&](int dims) { return function(step, dims, true); })});
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
    if (glb_dims_left == 0 && !stage)
      return lower_sequential(e);
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
    return in_stage(stage_dims(a), [&](int dims) { return value(a, dims, true); });
  }
};
} // namespace

Expr lower_sequential(const Expr& f) {
  const LoweringRuleSet& rules = lowering_rule_set();
  // A Map that only rearranges (Map(Join), ...) stays a view: there is nothing to compute.
  static const Strategy sequential =
      everywhere(choice(where(is_computing_map, rule(rules.seq)), rule(rules.reduce_seq)));
  return *rewrite::apply(sequential, f);
}

Expr lower_default(const Expr& program) {
  if (program->kind != NodeKind::Lambda)
    user_error("lower_default expects a program (a lambda)");
  Lowerer lowerer;
  Expr lowered = lowerer.in_stage(stage_dims(program->body()), [&](int dims) {
    return make_lambda(program->params(), lowerer.value(program->body(), dims, true));
  });
  return legalize_mappings(lowered);
}

} // namespace tessera::rewrite
