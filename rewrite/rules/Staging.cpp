// Staging rules: copy the array a function reads into faster memory first. They change where
// data lives, not what is computed (toLocal/toPrivate are placements, the copy is the
// identity), so the interpreter computes the same values; the code generator rejects a
// placement that is not possible where it ends up (toLocal outside a work-group).
//   stage-local    Map(t => body(t)) -> Map(t => body(toLocal(Map^m(id))(t)))
//                  (a work-group copies its tile once, then every work-item reads the copy)
//   stage-private  Map(w => body(w)) -> Map(w => body(toPrivate(Map^m(id))(w)))
//                  when w is a small neighbourhood (at most 64 scalars): registers
//   place-result   m $ x -> toLocal(m) $ x | toPrivate(m) $ x   m a computing Map of any kind
//                  (the mapping stage places a tile's intermediate results with it; not in
//                  all_rules(): on a high-level program it only moves where a result lives)
// m is the number of array levels of the element. A tuple of arrays read only through Get(k)
// (a tile of zipped inputs) has each component it reads staged: Get(k) $ t ->
// toLocal(Map^m(id)) $ (Get(k) $ t). The Map kind is kept: the local-memory mapping
// (rewrite/MapLevels.h) stages a MapWrg's tile with this rule.
#include <map>
#include <set>

#include "core/Error.h"
#include "core/Fields.h"
#include "core/Substitute.h"
#include "rewrite/Pattern.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

// Is x the parameter, or Get(k) of it?
bool is_param_or_component(const Expr& x, const Node* param) {
  return x.get() == param || (is_call_of(x, NodeKind::Get) && arg0(x).get() == param);
}

// Does e already copy the parameter (or a component of it) to another memory? (A computation
// whose result is placed there, an earlier time step of a tile, is no copy.)
bool stages(const Expr& e, const Node* param) {
  if (e->kind == NodeKind::Call && e->children.size() == 2 &&
      e->callee()->kind == NodeKind::ToMem && is_copy(e->callee()->children[0]) &&
      is_param_or_component(arg0(e), param))
    return true;
  for (const auto& c : e->children)
    if (stages(c, param))
      return true;
  return false;
}

// The components k that e reads as Get(k) $ param, or nullopt when it reads the parameter
// otherwise too.
std::optional<std::set<int64_t>> components_read(const Expr& e, const Node* param) {
  if (is_call_of(e, NodeKind::Get) && arg0(e).get() == param)
    return std::set<int64_t>{get_component(*e->callee())};
  if (e.get() == param)
    return std::nullopt;
  std::set<int64_t> all;
  for (const auto& c : e->children) {
    auto read = components_read(c, param);
    if (!read)
      return std::nullopt;
    all.insert(read->begin(), read->end());
  }
  return all;
}

// What a staging copies: the argument t, an array of scalars (any depth), or, when t is a
// tuple of such arrays read only through Get(k) (a tile of zipped inputs), each component the
// function reads, every one copied once.
struct Staging {
  Expr param, body;
  std::vector<int64_t> components; // empty: t itself
  int levels = 0;                  // of every staged array
  std::optional<int64_t> scalars;  // staged scalars in all, when the extents are constants
};

// Adds an array of scalars to the staging; false (and why) when it is not one or its levels
// differ from the other parts'.
bool add_part(const Type& t, Staging& s, bool first, std::string* why) {
  if (!t.is_array() || !t.innermost().is_scalar()) {
    *why = cat("the staged value has type ", t, ", not an array of scalars");
    return false;
  }
  int levels = 0;
  std::optional<int64_t> count = 1;
  for (const Type* l = &t; l->is_array(); l = &l->element()) {
    ++levels;
    auto n = l->length().as_constant();
    count = count && n ? std::optional<int64_t>(*count * *n) : std::nullopt;
  }
  if (!first && levels != s.levels) {
    *why = "the components have different numbers of levels";
    return false;
  }
  s.levels = levels;
  s.scalars =
      first ? count : (s.scalars && count ? std::optional(*s.scalars + *count) : std::nullopt);
  return true;
}

// Map(t => body): the pieces, or why not.
std::optional<Staging> match(const Expr& e, const RuleContext& ctx, std::string* why) {
  if (e->kind != NodeKind::Map)
    return std::nullopt;
  const Expr& f = e->children[0];
  if (f->kind != NodeKind::Lambda || f->params().size() != 1)
    return std::nullopt;
  Staging s{f->params()[0], f->body()};
  const Node* t = s.param.get();
  if (!mentions(s.body, t) || is_layout_only(f) || stages(s.body, t)) {
    *why = "the function computes nothing from its argument or already stages it";
    return std::nullopt;
  }
  const Type& element = ctx.type_of(s.param);
  if (!element.is_tuple())
    return add_part(element, s, true, why) ? std::optional(s) : std::nullopt;
  auto read = components_read(s.body, t);
  if (!read) {
    *why = "the argument is a tuple read other than through Get(k)";
    return std::nullopt;
  }
  for (int64_t k : *read) {
    if (!add_part(element.elements().at(static_cast<std::size_t>(k)), s, s.components.empty(), why))
      return std::nullopt;
    s.components.push_back(k);
  }
  return s;
}

// e with every Get(k) $ from replaced by `copy $ (Get(k) $ to)`, one shared copy per k.
Expr stage_components(const Expr& e, const Node* from, const Expr& to, const Expr& copy,
                      std::map<int64_t, Expr>& staged) {
  if (is_call_of(e, NodeKind::Get) && arg0(e).get() == from) {
    auto [it, fresh] = staged.try_emplace(get_component(*e->callee()));
    if (fresh)
      it->second = call1(copy, call1(e->callee(), to));
    return it->second;
  }
  std::vector<Expr> children;
  bool changed = false;
  for (const auto& c : e->children) {
    children.push_back(stage_components(c, from, to, copy, staged));
    changed |= !children.back().same_as(c);
  }
  return changed ? with_children(e, std::move(children)) : e;
}

Expr staged(const Staging& s, AddressSpace space, const Expr& map) {
  Expr copy = identity_fun();
  for (int i = 0; i < s.levels; ++i)
    copy = make_map(MapKind::Map, 0, copy);
  Expr to_mem = make_to_mem(space, copy);
  Expr p = make_param();
  std::map<int64_t, Expr> copies;
  Expr body = s.components.empty() ? replace_node(s.body, s.param.get(), call1(to_mem, p))
                                   : stage_components(s.body, s.param.get(), p, to_mem, copies);
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

// m $ x -> toMem_s(m) $ x: the result of a computing Map (of any kind) in local or private
// memory.
RuleResult place_result(const Expr& e, const RuleContext&) {
  if (e->kind != NodeKind::Call || e->children.size() != 2)
    return RuleResult::none("");
  const Expr& m = e->callee();
  if (m->kind != NodeKind::Map || is_layout_only(m))
    return RuleResult::none("");
  RuleResult r;
  for (AddressSpace space : {AddressSpace::Local, AddressSpace::Private})
    r.alternatives.push_back({with_children(e, {make_to_mem(space, m), arg0(e)}),
                              {{"space", static_cast<int64_t>(space)}}});
  return r;
}

} // namespace

// The number of array levels of the staged argument.
const ParamDomain kLevels{.name = "levels", .source = ParamDomain::Source::ProgramCount};

Rule stage_local_rule() {
  return with_family({"stage-local",
                      "Map(t => f(t)) -> Map(t => f(toLocal(copy)(t))): the tile in local memory",
                      stage_local,
                      {},
                      {kLevels}},
                     "local-memory");
}

Rule place_result_rule() {
  return {"place-result",
          "m $ x -> toMem(m) $ x: a computed array in local or private memory",
          place_result,
          {},
          {{.name = "space",
            .values = {static_cast<int64_t>(AddressSpace::Local),
                       static_cast<int64_t>(AddressSpace::Private)}}},
          false};
}

std::vector<Rule> staging_rules() {
  return {
      stage_local_rule(),
      {"stage-private",
       "Map(w => f(w)) -> Map(w => f(toPrivate(copy)(w))): a small neighbourhood in registers",
       stage_private,
       {},
       {kLevels}},
  };
}

} // namespace tessera::rewrite
