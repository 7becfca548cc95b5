#include "rewrite/Normalize.h"

#include "core/Substitute.h"

namespace tessera::rewrite {

namespace {

int uses(const Expr& e, const Node* param) {
  if (e.get() == param)
    return 1;
  int n = 0;
  for (const auto& c : e->children)
    n += uses(c, param);
  return n;
}

// Rearranges data only: a parameter, or layout calls over such values.
bool is_view(const Expr& e) {
  if (e->kind == NodeKind::Param || e->kind == NodeKind::Literal)
    return true;
  if (e->kind != NodeKind::Call || !is_layout_only(e->callee()))
    return false;
  for (const auto& a : e->call_args())
    if (!is_view(a))
      return false;
  return true;
}

Expr replace(const Expr& e, const Node* from, const Expr& to) {
  if (e.get() == from)
    return to;
  bool changed = false;
  std::vector<Expr> children;
  children.reserve(e->children.size());
  for (const auto& c : e->children) {
    children.push_back(replace(c, from, to));
    changed |= !children.back().same_as(c);
  }
  return changed ? with_children(e, std::move(children)) : e;
}

} // namespace

Expr beta_normalize(const Expr& e) {
  bool changed = false;
  std::vector<Expr> children;
  children.reserve(e->children.size());
  for (const auto& c : e->children) {
    children.push_back(beta_normalize(c));
    changed |= !children.back().same_as(c);
  }
  Expr cur = changed ? with_children(e, std::move(children)) : e;
  if (cur->kind != NodeKind::Call || cur->callee()->kind != NodeKind::Lambda)
    return cur;
  const Expr& lambda = cur->callee();
  auto params = lambda->params();
  auto args = cur->call_args();
  if (params.size() != args.size())
    return cur;
  for (std::size_t i = 0; i < params.size(); ++i)
    if (!is_view(args[i]) && uses(lambda->body(), params[i].get()) > 1)
      return cur;
  Expr body = lambda->body();
  for (std::size_t i = 0; i < params.size(); ++i)
    body = replace(body, params[i].get(), args[i]);
  return beta_normalize(body);
}

} // namespace tessera::rewrite
