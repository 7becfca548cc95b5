// Memory placement of program inputs, with the device's limits as side conditions:
//
//   place-constant  fun(..., x, ...) => body  ->  fun(..., x in Constant, ...) => body
//
// A read-only input of constant size is read from __constant memory (a cache for values that
// all work-items read, e.g. stencil weights or coefficients) when it fits the device's constant
// buffer beside the inputs already placed there, and the device allows one more __constant
// argument. The values are the same; only the kernel's declaration changes. (Every other input
// is already `const __global T* restrict`: read-only and not aliased.)
#include <functional>

#include "core/Error.h"
#include "rewrite/rules/Placement.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

// `e` with every use of `from` replaced by `to`; untouched subtrees are shared.
Expr replace_param(const Expr& e, const Expr& from, const Expr& to) {
  if (e.same_as(from))
    return to;
  std::vector<Expr> children;
  bool changed = false;
  for (const auto& c : e->children) {
    children.push_back(replace_param(c, from, to));
    changed |= !children.back().same_as(c);
  }
  return changed ? with_children(e, std::move(children)) : e;
}

} // namespace

Expr with_input_placed(const Expr& program, std::size_t i, AddressSpace space) {
  auto params = program->params();
  Expr placed = make_placed_input(params.at(i), space);
  Expr body = replace_param(program->body(), params[i], placed);
  params[i] = placed;
  return make_lambda(params, body);
}

namespace {

int64_t bytes_of(const Type& t) {
  auto count = t.scalar_count().as_constant();
  if (!count || !t.innermost().is_scalar())
    return -1;
  return *count * (t.innermost().scalar_kind() == ScalarKind::F64 ? 8 : 4);
}

RuleResult place_constant(const Expr& e, const RuleContext& ctx) {
  if (e->kind != NodeKind::Lambda || e->params().empty() || !e->params().front()->declared_type)
    return RuleResult::none("");
  auto params = e->params();
  int64_t used_bytes = 0;
  int used_args = 0;
  for (const auto& p : params)
    if (p->space == AddressSpace::Constant) {
      used_bytes += bytes_of(*p->declared_type);
      ++used_args;
    }
  RuleResult r;
  std::string why = "no input of constant size fits the device's constant memory";
  if (used_args >= ctx.target.max_constant_args)
    why = cat("the device allows ", ctx.target.max_constant_args, " __constant arguments");
  for (std::size_t i = 0; i < params.size() && used_args < ctx.target.max_constant_args; ++i) {
    const Expr& p = params[i];
    if (p->space != AddressSpace::Global || !p->declared_type || !p->declared_type->is_array())
      continue;
    int64_t bytes = bytes_of(*p->declared_type);
    if (bytes < 0 || used_bytes + bytes > ctx.target.max_constant_bytes)
      continue;
    r.alternatives.push_back(
        {with_input_placed(e, i, AddressSpace::Constant), {{"input", static_cast<int64_t>(i)}}});
  }
  if (r.alternatives.empty())
    r.why_not = why;
  return r;
}

} // namespace

std::vector<Rule> placement_rules() {
  MappingTraits traits;
  traits.completes = [](const Params& p) {
    Mapping m{MappingKind::ConstantInput};
    m.input = static_cast<int>(p.at("input"));
    return m;
  };
  traits.on_plain_lowering = true;
  return {{"place-constant",
           "fun(x) => f(x) -> fun(x in __constant) => f(x): an input of constant size within the "
           "device's constant memory",
           place_constant,
           traits,
           {{.name = "input", .source = ParamDomain::Source::ProgramCount}}}};
}

} // namespace tessera::rewrite
