// Staging rules: copy the array a function reads into faster memory first. They change where
// data lives, not what is computed (toLocal/toPrivate are placements, the copy is the
// identity), so the interpreter computes the same values; the code generator rejects a
// placement that is not possible where it ends up (toLocal outside a work-group).
//   stage-local    Map(t => body(t)) -> Map(t => body(toLocal(Map^m(id))(t)))
//                  (a work-group copies its tile once, then every work-item reads the copy)
//   stage-private  Map(w => body(w)) -> Map(w => body(toPrivate(Map^m(id))(w)))
//                  when w is a small neighbourhood (at most 64 scalars): registers
// m is the number of array levels of the element.
#include "core/Error.h"
#include "core/Substitute.h"
#include "rewrite/Pattern.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

bool mentions_to_mem(const Expr& e) {
  if (e->kind == NodeKind::ToMem)
    return true;
  for (const auto& c : e->children)
    if (mentions_to_mem(c))
      return true;
  return false;
}

// Map(t => body) with t an array of scalars (any depth): the pieces, or why not.
struct Staging {
  Expr param, body;
  int levels = 0;
  std::optional<int64_t> scalars; // number of scalars in t when its extents are constants
};

std::optional<Staging> match(const Expr& e, const RuleContext& ctx, std::string* why) {
  if (e->kind != NodeKind::Map)
    return std::nullopt;
  const Expr& f = e->children[0];
  if (f->kind != NodeKind::Lambda || f->params().size() != 1)
    return std::nullopt;
  Staging s{f->params()[0], f->body()};
  const Type& element = ctx.type_of(s.param);
  if (!element.is_array()) {
    *why = "the function's argument is not an array";
    return std::nullopt;
  }
  if (!element.innermost().is_scalar()) {
    *why = "the argument's elements are tuples (stage the components instead)";
    return std::nullopt;
  }
  if (!mentions(s.body, s.param.get()) || is_layout_only(f) || mentions_to_mem(s.body)) {
    *why = "the function computes nothing from its argument or already stages data";
    return std::nullopt;
  }
  int64_t count = 1;
  bool constant = true;
  for (const Type* t = &element; t->is_array(); t = &t->element()) {
    ++s.levels;
    auto n = t->length().as_constant();
    constant = constant && n.has_value();
    if (n)
      count *= *n;
  }
  if (constant)
    s.scalars = count;
  return s;
}

Expr staged(const Staging& s, AddressSpace space, const Expr& map) {
  Expr copy = identity_fun();
  for (int i = 0; i < s.levels; ++i)
    copy = make_map(MapKind::Map, 0, copy);
  Expr p = make_param();
  Expr body = replace_node(s.body, s.param.get(), call1(make_to_mem(space, copy), p));
  return make_map(map->map_kind, map->dim, make_lambda({p}, body));
}

RuleResult stage_local(const Expr& e, const RuleContext& ctx) {
  std::string why;
  auto s = match(e, ctx, &why);
  if (!s)
    return RuleResult::none(why);
  return {{{staged(*s, AddressSpace::Local, e), {{"levels", s->levels}}}}, ""};
}

RuleResult stage_private(const Expr& e, const RuleContext& ctx) {
  std::string why;
  auto s = match(e, ctx, &why);
  if (!s)
    return RuleResult::none(why);
  if (!s->scalars || *s->scalars > 64)
    return RuleResult::none("the neighbourhood is not a constant size of at most 64 scalars");
  return {{{staged(*s, AddressSpace::Private, e), {{"levels", s->levels}}}}, ""};
}

} // namespace

// The number of array levels of the staged argument.
const ParamDomain kLevels{.name = "levels", .source = ParamDomain::Source::ProgramCount};

std::vector<Rule> staging_rules() {
  return {
      {"stage-local",
       "Map(t => f(t)) -> Map(t => f(toLocal(copy)(t))): the tile in local memory",
       stage_local,
       {},
       {kLevels}},
      {"stage-private",
       "Map(w => f(w)) -> Map(w => f(toPrivate(copy)(w))): a small neighbourhood in registers",
       stage_private,
       {},
       {kLevels}},
  };
}

} // namespace tessera::rewrite
