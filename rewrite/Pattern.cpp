#include "rewrite/Pattern.h"

#include "core/Error.h"
#include "core/NdExpr.h"
#include "core/Substitute.h"

namespace tessera::rewrite {

bool is_call_of(const Expr& e, NodeKind kind) {
  return e->kind == NodeKind::Call && e->callee()->kind == kind;
}

bool is_computing_map_call(const Expr& e) {
  if (!is_call_of(e, NodeKind::Map) || e->children.size() != 2)
    return false;
  const Expr& m = e->callee();
  return m->map_kind == MapKind::Map && !is_layout_only(m->children[0]);
}

const Expr& arg0(const Expr& call) {
  if (call->kind != NodeKind::Call || call->children.size() < 2)
    internal_error("arg0 of something that is not a call with an argument");
  return call->children[1];
}

Expr call1(Expr f, Expr x) {
  return make_call(std::move(f), {std::move(x)});
}

Expr at_level(int level, const Expr& f, const Expr& x) {
  return call1(map_nest(level, f), x);
}

Expr compose2(const Expr& f, const Expr& g) {
  Expr p = make_param();
  return make_lambda({p}, call1(f, call1(g, p)));
}

bool mentions(const Expr& e, const Node* param) {
  if (e.get() == param)
    return true;
  for (const auto& c : e->children)
    if (mentions(c, param))
      return true;
  return false;
}

Expr replace_node(const Expr& e, const Node* from, const Expr& to) {
  if (e.get() == from)
    return to;
  bool changed = false;
  std::vector<Expr> children;
  for (const auto& c : e->children) {
    children.push_back(replace_node(c, from, to));
    changed |= !children.back().same_as(c);
  }
  return changed ? with_children(e, children) : e;
}

Expr identity_fun() {
  auto def = std::make_shared<UserFunDef>();
  def->name = "id";
  def->arity = 1;
  def->body = ScalarExpr::param(0);
  return make_user_fun(def);
}

bool is_copy(const Expr& f) {
  if (f->kind == NodeKind::Map)
    return is_copy(f->children[0]);
  return f->kind == NodeKind::UserFun && f->user_fun->name == "id" && f->user_fun->arity == 1;
}

int map_depth(const Expr& f, Expr* innermost) {
  int d = 0;
  Expr cur = f;
  while (cur->kind == NodeKind::Map && cur->map_kind == MapKind::Map) {
    ++d;
    cur = cur->children[0];
  }
  if (innermost)
    *innermost = cur;
  return d;
}

} // namespace tessera::rewrite
