// The tridiagonal solve of dsl/Tridiagonal.h, from the Thomas algorithm to parallel cyclic
// reduction:
//
//   thomas-to-pcr   thomas_solve(line, rows)  ->  pcr_solve(line, rows)
//
// Thomas is three scans, n sequential steps in the work-item of the line; PCR is log2(n) steps
// of element-wise Maps (O(n log n) work), which the lowering maps to work-items. The rule finds
// the rows (lower, diagonal, upper, rhs as functions of the line's element) in the scans'
// functions and rebuilds them for every PCR step, so the coefficients are still computed where
// they are used. The line's length must be a constant (PCR unrolls its steps).
//
//   thomas-to-pcr-local   Map(line => thomas_solve(line, rows))
//                      -> MapWrg(0)(line => pcr_solve(line, rows) in local memory)
//
// The same over a whole Map of lines: a work-group per line, a work-item per row and every
// step's arrays in local memory (ReductionPlacement::LocalMemory).
//
// The rules live here, above dsl/ and rewrite/ (siblings), because they build with the DSL's
// pcr_solve; the explorer passes them down to the enumeration (EnumerateOptions::extra_rules).
#include "compile/TridiagonalRules.h"

#include "core/Error.h"
#include "core/Fields.h"
#include "core/Substitute.h"
#include "dsl/Tridiagonal.h"

namespace tessera::explore {

using rewrite::Rule;
using rewrite::RuleContext;
using rewrite::RuleResult;

namespace {

bool calls_user_fun(const Expr& body, const char* name) {
  return body->kind == NodeKind::Call && body->callee()->kind == NodeKind::UserFun &&
         body->callee()->user_fun->name == name;
}

// The forward or backward Scan whose function's body calls the user function `name`, applied
// as Call(Scan, [argument]); null when `e` is not one.
const Node* scan_call(const Expr& e, const char* name, bool backward) {
  if (e->kind != NodeKind::Call || e->children.size() != 2)
    return nullptr;
  const Expr& scan = e->callee();
  if (scan->kind != NodeKind::Scan || scan->backward != backward)
    return nullptr;
  const Expr& f = scan->children[0];
  if (f->kind != NodeKind::Lambda || f->params().size() != 2 || !calls_user_fun(f->body(), name))
    return nullptr;
  return e.get();
}

// e with every Get(0)(t) replaced by `to`; `complete` is cleared when t is used otherwise.
Expr replace_first_component(const Expr& e, const Expr& t, const Expr& to, bool& complete) {
  if (e.same_as(t)) {
    complete = false;
    return e;
  }
  if (e->kind == NodeKind::Call && e->children.size() == 2 && e->callee()->kind == NodeKind::Get &&
      get_component(*e->callee()) == 0 && e->children[1].same_as(t))
    return to;
  std::vector<Expr> children;
  bool changed = false;
  for (const auto& c : e->children) {
    children.push_back(replace_first_component(c, t, to, complete));
    changed |= !children.back().same_as(c);
  }
  return changed ? with_children(e, std::move(children)) : e;
}

// The parts of a Thomas solve: its line and the rows as expressions of the element `element`.
struct Thomas {
  Expr line, element, lower, diagonal, upper, rhs;
  ScalarKind kind = ScalarKind::F32;
};

// Recognises the expression thomas_solve builds: (cp => ScanBackward(back) $ Zip(cp,
// Scan(rhs) $ ...)) $ Scan(upper) $ line.
std::optional<Thomas> match_thomas(const Expr& e) {
  if (e->kind != NodeKind::Call || e->children.size() != 2)
    return std::nullopt;
  const Expr& finish = e->callee();
  if (finish->kind != NodeKind::Lambda || finish->params().size() != 1)
    return std::nullopt;
  const Node* upper_scan = scan_call(e->children[1], "thomasUpper", false);
  if (!upper_scan || !scan_call(finish->body(), "thomasBack", true))
    return std::nullopt;
  // The rhs scan: the second array of the backward scan's Zip.
  const Expr& zipped = finish->body()->children[1];
  if (zipped->kind != NodeKind::Call || zipped->children.size() != 3)
    return std::nullopt;
  const Node* rhs_scan = scan_call(zipped->children[2], "thomasRhs", false);
  if (!rhs_scan)
    return std::nullopt;
  const Expr& upper_f = upper_scan->children[0]->children[0];
  const Expr& rhs_f = rhs_scan->children[0]->children[0];
  Thomas t;
  t.line = upper_scan->children[1];
  t.element = upper_f->params()[1];
  const auto& u = upper_f->body()->children; // [thomasUpper, s, lower, diagonal, upper]
  if (u.size() != 5 || rhs_f->body()->children.size() != 6)
    return std::nullopt;
  t.lower = u[2];
  t.diagonal = u[3];
  t.upper = u[4];
  bool complete = true;
  t.rhs =
      replace_first_component(rhs_f->body()->children[4], rhs_f->params()[1], t.element, complete);
  const Expr& zero = upper_scan->children[0]->children[1];
  if (!complete || zero->kind != NodeKind::Literal)
    return std::nullopt;
  t.kind = zero->literal.kind;
  return t;
}

// pcr_solve over the line (an expression of type line_type) with the rows of t.
Expr pcr_of(const Thomas& t, const Expr& line, const Type& line_type,
            ReductionPlacement placement) {
  Type scalar = Type::scalar(t.kind);
  TridiagonalRows rows = [&t, scalar](Val e) {
    auto at = [&](const Expr& coefficient) {
      std::map<const Node*, Expr> renamed{{t.element.get(), e.expr()}};
      return Val(instantiate(coefficient, renamed), scalar);
    };
    return TridiagonalRow{at(t.lower), at(t.diagonal), at(t.upper), at(t.rhs)};
  };
  return pcr_solve(Val(line, line_type), rows, t.kind, placement).expr();
}

std::optional<int64_t> constant_length(const Type& t) {
  return t.is_array() ? t.length().as_constant() : std::nullopt;
}

RuleResult thomas_to_pcr(const Expr& e, const RuleContext& ctx) {
  auto t = match_thomas(e);
  if (!t)
    return RuleResult::none("not a Thomas solve");
  const Type& type = ctx.type_of(t->line);
  if (!constant_length(type))
    return RuleResult::none("the line's length is not a constant");
  RuleResult r;
  r.alternatives.push_back({pcr_of(*t, t->line, type, ReductionPlacement::HighLevel), {}});
  return r;
}

RuleResult thomas_to_pcr_local(const Expr& e, const RuleContext& ctx) {
  // Map(line => Thomas(line)) applied to the lines.
  if (e->kind != NodeKind::Call || e->children.size() != 2 || ctx.inside_function)
    return RuleResult::none("");
  const Expr& map = e->callee();
  if (map->kind != NodeKind::Map || map->map_kind != MapKind::Map)
    return RuleResult::none("");
  const Expr& f = map->children[0];
  if (f->kind != NodeKind::Lambda || f->params().size() != 1)
    return RuleResult::none("");
  auto t = match_thomas(f->body());
  if (!t)
    return RuleResult::none("not a Map of Thomas solves");
  if (!constant_length(ctx.type_of(t->line)))
    return RuleResult::none("the lines' length is not a constant");
  // The line is an expression of the Map's parameter, which the new Map keeps.
  Expr body = pcr_of(*t, t->line, ctx.type_of(t->line), ReductionPlacement::LocalMemory);
  RuleResult r;
  r.alternatives.push_back(
      {make_call(make_map(MapKind::Wrg, 0, make_lambda(f->params(), body)), {e->children[1]}), {}});
  return r;
}

} // namespace

std::vector<Rule> tridiagonal_rules() {
  return {{"thomas-to-pcr",
           "thomas_solve(line, rows) -> pcr_solve(line, rows): log2(n) element-wise steps "
           "instead of n sequential ones",
           thomas_to_pcr},
          {"thomas-to-pcr-local",
           "Map(line => thomas_solve(line, rows)) -> MapWrg(line => pcr_solve(line, rows) in "
           "local memory)",
           thomas_to_pcr_local}};
}

} // namespace tessera::explore
