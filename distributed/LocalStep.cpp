#include "distributed/LocalStep.h"

#include <functional>
#include <set>

#include "core/Error.h"
#include "core/Fields.h"
#include "dsl/Val.h"
#include "primitives/TypeCheck.h"

namespace tessera::distributed {

namespace {

void collect_radius(const Expr& e, std::set<const Node*>& seen, int64_t& radius) {
  if (!seen.insert(e.get()).second)
    return;
  if (e->kind == NodeKind::Pad)
    for (const ArithExpr& width : {pad_fields(*e).left, pad_fields(*e).right}) {
      auto c = width.as_constant();
      if (!c)
        user_error(cat("the step pads by ", width.to_string(),
                       ": a distributed sweep needs a constant halo width"));
      radius = std::max(radius, *c);
    }
  for (const auto& c : e->children)
    collect_radius(c, seen, radius);
}

} // namespace

int64_t pad_radius(const Expr& program) {
  std::set<const Node*> seen;
  int64_t radius = 0;
  collect_radius(program, seen, radius);
  return radius;
}

bool is_periodic(const Expr& program) {
  std::set<const Node*> seen;
  int wraps = 0, others = 0;
  std::function<void(const Expr&)> walk = [&](const Expr& e) {
    if (!seen.insert(e.get()).second)
      return;
    if (e->kind == NodeKind::Pad)
      ++(e->boundary.kind == Boundary::Wrap ? wraps : others);
    for (const auto& c : e->children)
      walk(c);
  };
  walk(program);
  if (wraps && others)
    user_error(cat("the step mixes the wrap boundary (", wraps, " Pads) with others (", others,
                   "): a distributed sweep needs the grid periodic everywhere or nowhere"));
  return wraps > 0;
}

Expr repeatable_step(const StencilBuilder& build, const std::vector<int64_t>& extents) {
  Expr step = build(std::vector<ArithExpr>(extents.begin(), extents.end()));
  if (step->kind != NodeKind::Lambda || step->params().size() != 1)
    user_error("a distributed sweep needs a stencil with exactly one input (the grid)");
  Type in = *step->params()[0]->declared_type, out = infer_type(step);
  if (in != out)
    user_error(cat("a distributed sweep repeats the step, so its result must have the type of "
                   "its input; input ",
                   in.to_string(), ", result ", out.to_string()));
  return step;
}

} // namespace tessera::distributed
