#include "stencils/WithBoundary.h"

#include <map>

#include "core/Error.h"
#include "core/Fields.h"
#include "dsl/Dsl.h"
#include "primitives/TypeCheck.h"
#include "rewrite/Normalize.h"
#include "rewrite/rules/StencilStep.h"

namespace tessera::stencils {

Boundary parse_boundary(const std::string& text) {
  if (text == "clamp")
    return Boundary::clamp();
  if (text == "mirror")
    return Boundary::mirror();
  if (text == "wrap")
    return Boundary::wrap();
  if (text == "antisymmetric")
    return Boundary::antisymmetric();
  if (text == "fixed")
    return Boundary::fixed();
  if (text == "constant")
    return Boundary::constant(ScalarValue::make(ScalarKind::F64, 0));
  const std::string prefix = "constant(";
  if (text.rfind(prefix, 0) == 0 && text.size() > prefix.size() + 1 && text.back() == ')') {
    std::string number = text.substr(prefix.size(), text.size() - prefix.size() - 1);
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(number, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == number.size() && used > 0)
      return Boundary::constant(ScalarValue::make(ScalarKind::F64, value));
  }
  user_error(cat("unknown boundary '", text,
                 "': expected clamp, mirror, wrap, antisymmetric, constant, constant(V) with V "
                 "a number, or fixed"));
}

namespace {

struct Rebound {
  Boundary boundary;
  ScalarKind element;
  std::map<const Node*, Expr> done;
  int pads = 0;

  Expr visit(const Expr& e) {
    if (auto it = done.find(e.get()); it != done.end())
      return it->second;
    std::vector<Expr> children;
    for (const auto& c : e->children)
      children.push_back(visit(c));
    Expr result = e->children.empty() ? e : with_children(e, children);
    if (e->kind == NodeKind::Pad) {
      ++pads;
      Boundary b = boundary;
      if (b.kind == Boundary::Constant)
        b.value = ScalarValue::make(element, b.value.as_double());
      const MarginFields margins = pad_fields(*e);
      result = make_pad(margins.left, margins.right, b);
    }
    return done[e.get()] = result;
  }
};

} // namespace

Expr with_boundary(const Expr& program, const Boundary& boundary) {
  if (boundary.kind == Boundary::Fixed) // a step's boundary, not a Pad's (core/Expr.h)
    return with_fixed_halo(program);
  if (program->kind != NodeKind::Lambda || program->params().empty() ||
      !program->params()[0]->declared_type)
    user_error("with_boundary: expected a program whose first input has a declared type");
  ScalarKind element = program->params()[0]->declared_type->innermost().scalar_kind();
  Rebound rebound{boundary, element, {}, 0};
  Expr result = rebound.visit(program);
  if (rebound.pads == 0)
    user_error("with_boundary: the program has no Pad, so it has no boundary to replace");
  infer_type(result); // antisymmetric needs signed elements: refused here, named
  return result;
}

Expr with_fixed_halo(const Expr& program) {
  const std::string expected =
      "the fixed boundary (with_fixed_halo): expected one step of a point stencil on one grid "
      "input, x => Map^d(f) $ SlideND(2r+1, 1) $ PadND(r, r, b) $ x (as the catalog builds it)";
  if (program->kind != NodeKind::Lambda || program->params().size() != 1 ||
      !program->params()[0]->declared_type)
    user_error(expected);
  Expr grid = program->params()[0]; // params() is a copy
  auto step = rewrite::match_step(rewrite::beta_normalize(program->body()));
  if (!step || !step->consts.empty() || !step->input.same_as(grid))
    user_error(cat(expected, ", got ", print(program)));
  auto radius = step->r.as_constant();
  if (!radius)
    user_error(cat(expected, ", got a symbolic radius"));
  for (const auto& extent : grid->declared_type->shape())
    if (!extent.is_constant())
      user_error(cat("the fixed boundary (with_fixed_halo) needs a grid of constant extents (its "
                     "interior is generated at the grid's size), got ",
                     *grid->declared_type, ": give the size in numbers"));
  Val x = input(grid->name, *grid->declared_type);
  return tessera::program({x},
                          x | fixed_halo(step->d, static_cast<int>(*radius), Fun::of(step->f)));
}

} // namespace tessera::stencils
