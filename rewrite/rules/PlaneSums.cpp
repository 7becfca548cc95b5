#include "rewrite/rules/PlaneSums.h"

#include <map>
#include <set>

#include "core/Error.h"
#include "core/NdExpr.h"

namespace tessera::rewrite {

namespace {

constexpr const char* kPlanesSuffix = "_planes";

// One term of the sum, negated where it was subtracted.
struct Term {
  ScalarExpr expr;
  bool negated = false;
};

void flatten_sum(const ScalarExpr& e, bool negated, std::vector<Term>& out) {
  if (e.op() == ScalarOp::Add || e.op() == ScalarOp::Sub) {
    flatten_sum(e.args()[0], negated, out);
    flatten_sum(e.args()[1], e.op() == ScalarOp::Sub ? !negated : negated, out);
    return;
  }
  out.push_back({e, negated});
}

void params_of(const ScalarExpr& e, std::set<int>& out) {
  if (e.op() == ScalarOp::Param)
    out.insert(e.param_index());
  for (const auto& a : e.args())
    params_of(a, out);
}

// The outer scaling of a body, x / c or x * c (c a constant), with x; nothing otherwise.
std::optional<std::pair<ScalarExpr, ScalarExpr>> outer_scaling(const ScalarExpr& body) {
  if (body.op() == ScalarOp::Div && body.args()[1].op() == ScalarOp::Const)
    return std::pair{body.args()[0],
                     ScalarExpr::binary(ScalarOp::Div, ScalarExpr::param(0), body.args()[1])};
  if (body.op() == ScalarOp::Mul) {
    for (int k : {0, 1})
      if (body.args()[k].op() == ScalarOp::Const) {
        ScalarExpr p = ScalarExpr::param(0);
        return std::pair{body.args()[1 - k],
                         k == 0 ? ScalarExpr::binary(ScalarOp::Mul, body.args()[0], p)
                                : ScalarExpr::binary(ScalarOp::Mul, p, body.args()[1])};
      }
  }
  return std::nullopt;
}

std::shared_ptr<const UserFunDef> user_fun(std::string name, int arity,
                                           std::vector<ScalarKind> signature, ScalarExpr body,
                                           std::vector<std::string> names = {}) {
  auto def = std::make_shared<UserFunDef>();
  def->name = std::move(name);
  def->arity = arity;
  def->signature = std::move(signature);
  def->body = std::move(body);
  def->param_names = std::move(names);
  return def;
}

ScalarExpr left_sum(int count) {
  ScalarExpr sum = ScalarExpr::param(0);
  for (int k = 1; k < count; ++k)
    sum = ScalarExpr::binary(ScalarOp::Add, sum, ScalarExpr::param(k));
  return sum;
}

} // namespace

int64_t window_points(const Expr& f) {
  if (f->kind != NodeKind::Lambda || f->body()->kind != NodeKind::Call ||
      f->body()->callee()->kind != NodeKind::UserFun)
    return 0;
  return static_cast<int64_t>(f->body()->children.size()) - 1;
}

PlaneSplit split_by_plane(const Expr& f) {
  if (f->kind != NodeKind::Lambda || f->params().size() != 1)
    return {{}, "the window function is not a function of one window"};
  const Expr window = f->params()[0]; // params() is a copy
  const Expr& body = f->body();
  if (body->kind != NodeKind::Call || body->callee()->kind != NodeKind::UserFun)
    return {{}, "the window function is not one user function of the window's points"};
  const UserFunDef& def = *body->callee()->user_fun;
  std::vector<Expr> args = body->call_args();
  std::vector<int64_t> plane(args.size());
  for (std::size_t k = 0; k < args.size(); ++k) {
    // The plane a point is read from: the index applied to the window itself.
    auto p = window_point(args[k], window);
    if (!p || p->empty())
      return {{}, cat("argument ", k, " of ", def.name, " is not a point of the window")};
    plane[k] = p->front();
  }
  for (ScalarKind kind : def.signature)
    if (!is_floating(kind))
      return {{},
              cat(def.name, " takes ", to_string(kind),
                  " values (sums by plane are for "
                  "floating-point windows)")};
  ScalarExpr inner = def.body;
  std::optional<ScalarExpr> scale;
  if (auto s = outer_scaling(def.body)) {
    inner = s->first;
    scale = s->second;
  }
  std::vector<Term> terms;
  flatten_sum(inner, false, terms);
  // The terms of each plane, in their order; a term without parameters joins the first plane.
  std::map<int64_t, std::vector<Term>> by_plane;
  std::vector<Term> constants;
  for (const auto& t : terms) {
    std::set<int> used;
    params_of(t.expr, used);
    if (used.empty()) {
      constants.push_back(t);
      continue;
    }
    std::set<int64_t> planes;
    for (int p : used)
      planes.insert(plane[static_cast<std::size_t>(p)]);
    if (planes.size() > 1)
      return {{},
              cat("a term of ", def.name, " reads points of ", planes.size(),
                  " planes (each term of the sum must read one plane)")};
    by_plane[*planes.begin()].push_back(t);
  }
  if (by_plane.size() < 2)
    return {{}, cat(def.name, " reads fewer than two planes of its window: nothing to share")};
  if (!constants.empty()) {
    auto& first = by_plane.begin()->second;
    first.insert(first.end(), constants.begin(), constants.end());
  }
  std::vector<Expr> plane_results;
  int index = 0;
  for (const auto& [a, group] : by_plane) {
    std::map<int, int> renamed;
    std::vector<Expr> plane_args;
    std::vector<ScalarKind> signature;
    std::vector<std::string> names;
    for (const auto& t : group) {
      std::set<int> used;
      params_of(t.expr, used);
      for (int p : used)
        if (renamed.emplace(p, static_cast<int>(renamed.size())).second) {
          plane_args.push_back(args[static_cast<std::size_t>(p)]);
          if (!def.signature.empty())
            signature.push_back(def.signature[static_cast<std::size_t>(p)]);
          if (!def.param_names.empty())
            names.push_back(def.param_names[static_cast<std::size_t>(p)]);
        }
    }
    std::optional<ScalarExpr> sum;
    for (const auto& t : group) {
      ScalarExpr term = rename_params(t.expr, [&](int i) { return renamed.at(i); });
      if (!sum)
        sum = t.negated ? ScalarExpr::unary(ScalarOp::Neg, term) : term;
      else
        sum = ScalarExpr::binary(t.negated ? ScalarOp::Sub : ScalarOp::Add, *sum, term);
    }
    if (renamed.empty()) // constants only (cannot happen: they join a plane with points)
      internal_error("a plane of constants in split_by_plane");
    auto fun =
        user_fun(cat(def.name, "_p", a), static_cast<int>(renamed.size()), signature, *sum, names);
    plane_results.push_back(make_call(make_user_fun(fun), plane_args));
    ++index;
  }
  std::vector<ScalarKind> kinds;
  if (!def.signature.empty())
    kinds.assign(plane_results.size(), def.signature.front());
  auto planes = user_fun(def.name + kPlanesSuffix, index, kinds, left_sum(index));
  Expr result = make_call(make_user_fun(planes), plane_results);
  if (scale) {
    std::vector<ScalarKind> one;
    if (!def.signature.empty())
      one.push_back(def.signature.front());
    result = make_call(make_user_fun(user_fun(def.name + "_scale", 1, one, *scale)), {result});
  }
  return {make_lambda({window}, result), ""};
}

} // namespace tessera::rewrite
