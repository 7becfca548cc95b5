#include "distributed/LocalStep.h"

#include <functional>
#include <set>

#include "core/Error.h"
#include "core/Fields.h"
#include "dsl/Val.h"
#include "primitives/TypeCheck.h"

namespace tessera::distributed {

std::vector<std::string> box_size_names(int dims) {
  std::vector<std::string> names;
  for (int d = 0; d < dims; ++d)
    names.push_back("box" + std::to_string(d));
  return names;
}

std::vector<std::array<std::string, 2>> drop_size_names(int dims) {
  std::vector<std::array<std::string, 2>> names;
  for (int d = 0; d < dims; ++d)
    names.push_back({cat("drop", d, "lo"), cat("drop", d, "hi")});
  return names;
}

namespace {

// Map^levels(f): f applied at nesting level `levels` (dimension `levels` of the grid).
Expr nested(int levels, Expr f) {
  for (int i = 0; i < levels; ++i)
    f = make_map(MapKind::Map, 0, f);
  return f;
}

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

Expr local_step(const StencilBuilder& build, int dims) {
  std::vector<ArithExpr> extents;
  for (const auto& name : box_size_names(dims))
    extents.push_back(size(name));
  Expr step = build(extents);
  if (step->kind != NodeKind::Lambda || step->params().size() != 1)
    user_error("a distributed sweep needs a stencil with exactly one input (the grid)");
  Expr x = step->params()[0];
  Type in = *x->declared_type, out = infer_type(step);
  if (in != out)
    user_error(cat("a distributed sweep repeats the step, so its result must have the type of "
                   "its input; input ",
                   in.to_string(), ", result ", out.to_string()));
  Expr body = step->body();
  auto drops = drop_size_names(dims);
  for (int d = 0; d < dims; ++d)
    body = make_call(nested(d, make_drop(size(drops[d][0]), size(drops[d][1]))), {body});
  Expr result = make_lambda({x}, body);
  infer_type(result);
  return result;
}

} // namespace tessera::distributed
