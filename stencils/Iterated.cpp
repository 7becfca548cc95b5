#include "stencils/Iterated.h"

#include <map>

#include "core/Error.h"
#include "primitives/TypeCheck.h"
#include "stencils/Catalog.h"

namespace tessera::stencils {

namespace {

// A copy of e with `from` replaced by `to` and fresh parameters for every lambda, so that the
// steps share no nodes (rewrites address nodes by identity).
Expr instantiate(const Expr& e, std::map<const Node*, Expr>& renamed) {
  if (auto it = renamed.find(e.get()); it != renamed.end())
    return it->second;
  if (e->kind == NodeKind::Lambda)
    for (const auto& p : e->params())
      renamed[p.get()] = make_param(p->name, p->declared_type);
  std::vector<Expr> children;
  for (const auto& c : e->children)
    children.push_back(instantiate(c, renamed));
  return e->children.empty() ? e : with_children(e, children);
}

} // namespace

Expr iterate_program(const Expr& program, int k) {
  if (k < 1)
    throw Error("iterate_program: the number of steps must be at least 1, got " +
                std::to_string(k));
  if (program->kind != NodeKind::Lambda || program->params().size() != 1)
    throw Error("iterate_program: expected a program with exactly one input, got " +
                std::to_string(program->kind == NodeKind::Lambda ? program->params().size() : 0));
  Expr x = program->params()[0];
  Type in = *x->declared_type;
  Type out = infer_type(program);
  if (!(in == out))
    throw Error("iterate_program: a step must return the type of its input to be repeated; "
                "input " +
                in.to_string() + ", result " + out.to_string());
  Expr body = x;
  for (int s = 0; s < k; ++s) {
    std::map<const Node*, Expr> renamed{{x.get(), body}};
    body = instantiate(program->body(), renamed);
  }
  return make_lambda({x}, body);
}

Expr iterated_stencil(const std::string& name, const std::vector<ArithExpr>& extents, int k) {
  return iterate_program(find_stencil(name).build(extents), k);
}

} // namespace tessera::stencils
