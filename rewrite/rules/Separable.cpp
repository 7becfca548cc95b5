// separate-axes: a stencil step whose window function is a linear form of its points, with
// weights that factor into one weight per axis (w(o) = g_0(o_0) g_1(o_1) .. g_{d-1}(o_{d-1}),
// a Gaussian blur's, a separable box's), rewritten as one step per axis, each summing the 2r+1
// points of its window's line through the centre:
//
//   Map^d(f) $ SlideND(2r+1, 1) $ PadND(r, r, b) $ a
//     -> Map^d(f_0) $ SlideND $ PadND(b_0) $ .. $ Map^d(f_{d-1}) $ SlideND $ PadND(b_{d-1}) $ a
//
// The innermost axis first. (2r+1)^d multiply-adds a point become d (2r+1), for d - 1 more
// passes over the grid: an arithmetic-bound box gains, a small stencil may not (the explorer
// measures). Exact up to rounding: the weights are refactored and each pass rounds its sums to
// the element type. The boundary of each pass is the step's, which per-axis padding makes
// exact: a clamped, mirrored, wrapped or antisymmetric point of the grid is the same for the
// partial sums along the other axes; a constant c becomes c times the weights' sums of the
// passes before.
#include <cmath>
#include <limits>
#include <map>

#include "core/Error.h"
#include "core/NdExpr.h"
#include "rewrite/Pattern.h"
#include "rewrite/Shapes.h"
#include "rewrite/rules/Rules.h"
#include "rewrite/rules/StencilStep.h"

namespace tessera::rewrite {

namespace {

using Coefficients = std::map<int, double>; // parameter -> weight

// The weights of a linear form of the parameters (sums, differences, negations, products and
// quotients by constants); nothing for anything else, a constant term included.
std::optional<Coefficients> linear_form(const ScalarExpr& e) {
  auto scaled = [](std::optional<Coefficients> c, double by) {
    if (c)
      for (auto& [p, w] : *c)
        w *= by;
    return c;
  };
  switch (e.op()) {
  case ScalarOp::Param:
    return Coefficients{{e.param_index(), 1.0}};
  case ScalarOp::Neg:
    return scaled(linear_form(e.args()[0]), -1.0);
  case ScalarOp::Add:
  case ScalarOp::Sub: {
    auto a = linear_form(e.args()[0]), b = linear_form(e.args()[1]);
    if (!a || !b)
      return std::nullopt;
    for (const auto& [p, w] : *b)
      (*a)[p] += e.op() == ScalarOp::Sub ? -w : w;
    return a;
  }
  case ScalarOp::Mul:
    for (int k : {0, 1})
      if (e.args()[k].op() == ScalarOp::Const)
        return scaled(linear_form(e.args()[1 - k]), e.args()[k].value().as_double());
    return std::nullopt;
  case ScalarOp::Div:
    if (e.args()[1].op() == ScalarOp::Const && e.args()[1].value().as_double() != 0)
      return scaled(linear_form(e.args()[0]), 1.0 / e.args()[1].value().as_double());
    return std::nullopt;
  default:
    return std::nullopt;
  }
}

// A window offset's place in the row-major weights of a window `side` points a dimension, and
// back (outermost coordinate first).
std::size_t row_major(const std::vector<int64_t>& offset, int64_t side) {
  int64_t flat = 0;
  for (int64_t o : offset)
    flat = flat * side + o;
  return static_cast<std::size_t>(flat);
}

std::vector<int64_t> offset_of(std::size_t flat, int d, int64_t side) {
  std::vector<int64_t> offset(static_cast<std::size_t>(d));
  auto rest = static_cast<int64_t>(flat);
  for (int k = d - 1; k >= 0; --k, rest /= side)
    offset[static_cast<std::size_t>(k)] = rest % side;
  return offset;
}

// The window's weights, row-major over the (2r+1)^d offsets, or why the function is not a
// linear form of its points.
struct WindowWeights {
  std::vector<double> w;
  std::string why;
};

WindowWeights window_weights(const StencilStep& step, int64_t r) {
  const Expr& f = step.f;
  if (!step.consts.empty())
    return {{}, "the window function also reads other inputs"};
  if (f->kind != NodeKind::Lambda || f->params().size() != 1 || f->body()->kind != NodeKind::Call ||
      f->body()->callee()->kind != NodeKind::UserFun)
    return {{}, "the window function is not one user function of the window's points"};
  const Expr window = f->params()[0];
  const UserFunDef& def = *f->body()->callee()->user_fun;
  auto form = linear_form(def.body);
  if (!form)
    return {{},
            cat(def.name, " is not a weighted sum of its points (a linear form without a "
                          "constant term)")};
  const int64_t side = 2 * r + 1;
  int64_t points = 1;
  for (int k = 0; k < step.d; ++k)
    points *= side;
  std::vector<double> w(static_cast<std::size_t>(points), 0.0);
  const std::vector<Expr> args = f->body()->call_args();
  for (const auto& [p, weight] : *form) {
    auto offset = window_point(args.at(static_cast<std::size_t>(p)), window);
    if (!offset || offset->size() != static_cast<std::size_t>(step.d))
      return {{}, cat("argument ", p, " of ", def.name, " is not a point of the window")};
    w[row_major(*offset, side)] += weight;
  }
  return {w, ""};
}

// One weight per axis and point of the window's line (g[k][i]), with w(o) = prod_k g[k][o_k]
// to within `tolerance` of the largest weight; empty when the weights do not factor.
std::vector<std::vector<double>> factor_weights(const std::vector<double>& w, int d, int64_t side,
                                                double tolerance) {
  std::size_t pivot = 0;
  for (std::size_t k = 0; k < w.size(); ++k)
    if (std::fabs(w[k]) > std::fabs(w[pivot]))
      pivot = k;
  const double largest = std::fabs(w[pivot]);
  if (largest == 0)
    return {};
  // The pivot's coordinates, outermost first; the line through it along axis k gives g[k],
  // the inner axes' lines scaled by 1 / w(pivot) so that the product has w(pivot) once.
  const std::vector<int64_t> at = offset_of(pivot, d, side);
  std::vector<std::vector<double>> g(static_cast<std::size_t>(d));
  for (int k = 0; k < d; ++k)
    for (int64_t i = 0; i < side; ++i) {
      std::vector<int64_t> o = at;
      o[static_cast<std::size_t>(k)] = i;
      g[static_cast<std::size_t>(k)].push_back(w[row_major(o, side)] / (k == 0 ? 1.0 : w[pivot]));
    }
  for (std::size_t p = 0; p < w.size(); ++p) {
    const std::vector<int64_t> o = offset_of(p, d, side);
    double product = 1;
    for (int k = 0; k < d; ++k)
      product *=
          g[static_cast<std::size_t>(k)][static_cast<std::size_t>(o[static_cast<std::size_t>(k)])];
    if (std::fabs(product - w[p]) > tolerance * largest)
      return {};
  }
  return g;
}

// The step along axis k (0 outermost) with line weights g: Map^d(f_k) $ windows of `input`.
Expr axis_step(const StencilStep& step, int64_t r, int k, const std::vector<double>& g,
               ScalarKind kind, const Boundary& boundary, const Expr& input,
               const std::string& name) {
  const Expr window = step.f->params()[0];
  std::vector<Expr> points;
  std::optional<ScalarExpr> sum;
  for (int64_t i = 0; i < static_cast<int64_t>(g.size()); ++i) {
    if (g[static_cast<std::size_t>(i)] == 0)
      continue;
    Expr point = window;
    for (int level = 0; level < step.d; ++level)
      point = make_call(make_at(ArithExpr(level == k ? i : r)), {point});
    ScalarExpr term = ScalarExpr::binary(
        ScalarOp::Mul,
        ScalarExpr::constant(ScalarValue::make(kind, g[static_cast<std::size_t>(i)]), false),
        ScalarExpr::param(static_cast<int>(points.size())));
    sum = sum ? ScalarExpr::binary(ScalarOp::Add, *sum, term) : term;
    points.push_back(point);
  }
  auto def = std::make_shared<UserFunDef>();
  def->name = name;
  def->arity = static_cast<int>(points.size());
  def->signature.assign(points.size(), kind);
  def->body = *sum;
  Expr f = make_lambda({window}, make_call(make_user_fun(def), points));
  const ArithExpr n = 2 * step.r + 1;
  return make_call(
      map_nest(step.d, f),
      {slide_nd_expr(step.d, n, 1, pad_nd_expr(step.d, step.r, step.r, boundary, input))});
}

RuleResult separate_axes(const Expr& e, const RuleContext& ctx) {
  auto step = match_step(e);
  if (!step)
    return RuleResult::none("");
  if (step->d < 2)
    return RuleResult::none("a 1-D stencil (nothing to separate)");
  auto r = step->r.as_constant();
  if (!r)
    return RuleResult::none("the radius must be a constant");
  WindowWeights weights = window_weights(*step, *r);
  if (!weights.why.empty())
    return RuleResult::none(weights.why);
  // The windows (the call's argument as written) hold the grid's scalars.
  const Type& out = ctx.type_of(e).innermost();
  const Type& in = ctx.type_of(arg0(e)).innermost();
  if (!out.is_scalar() || !is_floating(out.scalar_kind()) || !(in == out))
    return RuleResult::none("the grid and the result must hold one floating-point type");
  const ScalarKind kind = out.scalar_kind();
  const double eps = kind == ScalarKind::F64 ? std::numeric_limits<double>::epsilon()
                                             : std::numeric_limits<float>::epsilon();
  auto g = factor_weights(weights.w, step->d, 2 * *r + 1, 16 * eps);
  if (g.empty())
    return RuleResult::none("the weights do not factor into one weight per axis");
  // An axis whose line has one point (the centre) needs no pass: its weight scales another.
  std::vector<int> passes;
  double scale = 1;
  for (int k = 0; k < step->d; ++k) {
    int nonzero = 0;
    for (double x : g[static_cast<std::size_t>(k)])
      nonzero += x != 0;
    if (nonzero > 1)
      passes.push_back(k);
    else
      scale *= g[static_cast<std::size_t>(k)][static_cast<std::size_t>(*r)];
  }
  if (passes.size() < 2)
    return RuleResult::none("the weights vary along one axis only (nothing to separate)");
  for (double& x : g[static_cast<std::size_t>(passes.front())])
    x *= scale;
  // Innermost axis first; a constant boundary scales by the weights summed so far.
  const std::string name = step->f->body()->callee()->user_fun->name;
  Expr result = step->input;
  double summed = 1;
  for (auto it = passes.rbegin(); it != passes.rend(); ++it) {
    Boundary b = step->boundary;
    if (b.kind == Boundary::Constant)
      b = Boundary::constant(ScalarValue::make(b.value.kind, b.value.as_double() * summed));
    const auto& line = g[static_cast<std::size_t>(*it)];
    result = axis_step(*step, *r, *it, line, kind, b, result, cat(name, "_axis", *it));
    double s = 0;
    for (double x : line)
      s += x;
    summed *= s;
  }
  return {{{result, {{"axes", static_cast<int64_t>(passes.size())}}}}, ""};
}

} // namespace

Rule separate_axes_rule() {
  Rule rule{"separate-axes",
            "Map^d(f) o SlideND o PadND $ a, f a weighted sum whose weights factor per axis -> "
            "one step per axis, each a weighted sum of its window's line (exact up to rounding)",
            separate_axes};
  rule.params = {{.name = "axes", .values = {2, 3}}};
  return at_kinds(with_family(std::move(rule), "separable"), {NodeKind::Call});
}

} // namespace tessera::rewrite
