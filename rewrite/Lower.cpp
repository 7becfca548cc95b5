#include "rewrite/Lower.h"

#include <algorithm>
#include <map>

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

// The global levels of the default lowering: the position of each level of each stage's outer
// nest of computing Maps, and the global dimension store order gives it.
using GlobalLevels = std::map<Position, int>;

// Finds the stages of a program and their global levels (the parameter chooser of map-glb).
struct StagePlanner {
  GlobalLevels levels;
  // The global dimension of each MapGlb level of the current stage, outermost first (empty:
  // none).
  std::vector<int> level_dims;
  Position pos;

  // Runs `plan` with the global dimensions of a stage of its own, then restores the current
  // stage's.
  template <class F> void in_stage(std::vector<int> dims, F plan) {
    std::swap(level_dims, dims);
    plan(static_cast<int>(level_dims.size()));
    std::swap(level_dims, dims);
  }
  template <class F> void at_child(std::size_t i, F plan) {
    pos.push_back(static_cast<int>(i));
    plan();
    pos.pop_back();
  }

  // `stage`: f is applied to a whole array in the program's data flow (not inside another
  // computation's function), so that its arguments' computations and the steps of an Iterate
  // are stages of their own with their own global mapping (one launch each, codegen/Stages.h).
  // Functions without global levels are a work-item's sequential code.
  void function(const Expr& f, int glb_dims_left, bool stage = false) {
    // Without global dimensions left, only a stage's lambda and Iterate map anything globally.
    bool has_stages = stage && (f->kind == NodeKind::Lambda || f->kind == NodeKind::Iterate);
    if ((glb_dims_left == 0 && !has_stages) || f->kind == NodeKind::Reduce)
      return;
    if (is_computing_map(f)) {
      levels[pos] = level_dims[level_dims.size() - static_cast<std::size_t>(glb_dims_left)];
      at_child(0, [&] { function(f->children[0], glb_dims_left - 1); });
    } else if (f->kind == NodeKind::Lambda) {
      at_child(f->children.size() - 1, [&] { value(f->body(), glb_dims_left, stage); });
    } else if (f->kind == NodeKind::Iterate && stage && !is_layout_only(f)) {
      // Every step is a launch of its own: the step's own mapping.
      const Expr& step = f->children[0];
      at_child(0,
               [&] { in_stage(step_dims(step), [&](int dims) { function(step, dims, true); }); });
    }
  }

  // Only the value the program returns keeps the global dimensions; arguments are data.
  // Rearrangements of the result (Join, Transpose, ...) pass them on to what they rearrange.
  // In a stage, an argument that is itself a whole-array computation is a stage too.
  void value(const Expr& e, int glb_dims_left, bool stage = false) {
    if (e->kind != NodeKind::Call || (glb_dims_left == 0 && !stage))
      return;
    if (e->children.size() == 2 && is_layout_only(e->callee()))
      return at_child(1, [&] { value(e->children[1], glb_dims_left, stage); });
    at_child(0, [&] { function(e->callee(), glb_dims_left, stage); });
    if (stage)
      for (std::size_t i = 1; i < e->children.size(); ++i)
        at_child(i, [&] { argument_stage(e->children[i]); });
  }

  // An argument in the program's data flow: layout calls pass it on; a computation under them
  // is a stage with its own global dimensions.
  void argument_stage(const Expr& a) {
    if (a->kind != NodeKind::Call)
      return;
    if (is_layout_only(a->callee())) {
      for (std::size_t i = 1; i < a->children.size(); ++i)
        at_child(i, [&] { argument_stage(a->children[i]); });
      return;
    }
    in_stage(stage_dims(a), [&](int dims) { value(a, dims, true); });
  }
};

// The global levels of a program (a lambda).
GlobalLevels global_levels(const Expr& program) {
  StagePlanner planner;
  planner.in_stage(stage_dims(program->body()), [&](int dims) {
    planner.at_child(program->children.size() - 1,
                     [&] { planner.value(program->body(), dims, true); });
  });
  return planner.levels;
}

} // namespace

// A Map that only rearranges (Map(Join), ...) stays a view: there is nothing to compute.
const Strategy& sequential_lowering() {
  const LoweringRuleSet& rules = lowering_rule_set();
  static const Strategy s =
      everywhere(choice(where(is_computing_map, rule(rules.seq)), rule(rules.reduce_seq)));
  return s;
}

Expr lower_sequential(const Expr& f) {
  return *rewrite::apply(sequential_lowering(), f);
}

Expr lower_default(const Expr& program) {
  if (program->kind != NodeKind::Lambda)
    user_error("lower_default expects a program (a lambda)");
  // The stages' global levels get map-glb with their dimension, everything else that computes
  // is sequential, and mappings already in the program that cannot run where they stand are
  // demoted (the rules replace nodes in place, so the levels' positions stay valid).
  GlobalLevels levels = global_levels(program);
  auto level_dim = [&levels](const Expr&, const Position& at) -> std::optional<Params> {
    auto it = levels.find(at);
    if (it == levels.end())
      return std::nullopt;
    return Params{{"dim", it->second}};
  };
  Strategy lowering =
      seq(seq(everywhere(rule_with(lowering_rule_set().glb, level_dim)), sequential_lowering()),
          legalization());
  return *rewrite::apply(lowering, program);
}

} // namespace tessera::rewrite
