#include "stencils/Iterated.h"

#include <map>

#include "core/Error.h"
#include "core/Substitute.h"
#include "primitives/TypeCheck.h"
#include "stencils/Catalog.h"

namespace tessera::stencils {

Expr iterate_program(const Expr& program, int k) {
  if (k < 1)
    throw Error("iterate_program: the number of steps must be at least 1, got " +
                std::to_string(k));
  if (program->kind != NodeKind::Lambda || program->params().empty())
    throw Error("iterate_program: expected a program with at least one input (the grid the "
                "steps update; the others, such as a right-hand side, are read by every step), "
                "got none");
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
  return make_lambda(program->params(), body);
}

Expr iterated_stencil(const std::string& name, const std::vector<ArithExpr>& extents, int k) {
  return iterate_program(find_stencil(name).build(extents), k);
}

} // namespace tessera::stencils
