// Exact evaluation of the scalar language with OpenCL C semantics (the interpreter's half of
// a user function; codegen/ScalarC.cpp prints the same expressions as OpenCL C).
#include <array>
#include <cmath>
#include <cstdint>
#include <memory>
#include <span>

#include "core/Error.h"
#include "core/FlopCount.h"
#include "core/Scalar.h"
#include "core/ScalarTyping.h"

namespace tessera {

using namespace scalar;

namespace {

// A comparison or logical operator on two operands of one kind (integers or reals), as 0 or 1.
template <class T> bool comparison(ScalarOp op, T p, T q) {
  switch (op) {
  case ScalarOp::Lt:
    return p < q;
  case ScalarOp::Le:
    return p <= q;
  case ScalarOp::Gt:
    return p > q;
  case ScalarOp::Ge:
    return p >= q;
  case ScalarOp::Eq:
    return p == q;
  case ScalarOp::Ne:
    return p != q;
  case ScalarOp::And:
    return p != 0 && q != 0;
  case ScalarOp::Or:
    return p != 0 || q != 0;
  default:
    internal_error("unhandled scalar operator");
  }
}

// Evaluates `e`; the kind of the value returned is the kind infer() gives (the body has been
// checked by infer() once, so kinds are computed from the operands' values here). `kinds`: the
// body's node kinds, for typing the branch a select does not evaluate.
ScalarValue eval_node(const ScalarExpr& e, const std::vector<ScalarValue>& params,
                      const NodeKinds& kinds, const std::string& context) {
  auto fail = [&](const std::string& what) -> ScalarValue {
    user_error(context.empty() ? what + " in a user function" : cat(context, ": ", what));
  };
  const auto& a = e.args();
  switch (e.op()) {
  case ScalarOp::Param:
    return params[e.param_index()];
  case ScalarOp::Const:
    return e.value();
  case ScalarOp::Select: {
    ScalarValue c = eval_node(a[0], params, kinds, context);
    bool taken = c.as_double() != 0;
    ScalarValue v = eval_node(a[taken ? 1 : 2], params, kinds, context);
    std::array<ScalarKind, 3> k = {ScalarKind::Bool, ScalarKind::Bool, ScalarKind::Bool};
    k[taken ? 1 : 2] = v.kind;
    k[taken ? 2 : 1] = kinds.at(a[taken ? 2 : 1].identity());
    use_operand_kinds(e, k);
    return ScalarValue::make(result_kind(e, k, context), v.as_double());
  }
  default:
    break;
  }
  // At most three operands (a select's); no allocation for their values and kinds: this runs
  // at every node of a body at every point of a grid.
  if (a.size() > 3)
    internal_error(cat("a scalar operator of ", a.size(), " operands"));
  std::array<ScalarValue, 3> v;
  std::array<ScalarKind, 3> kind_store{};
  const std::span<ScalarKind> k(kind_store.data(), a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    v[i] = eval_node(a[i], params, kinds, context);
    k[i] = v[i].kind;
  }
  use_operand_kinds(e, k);
  ScalarKind result = result_kind(e, k, context);
  switch (e.op()) {
  case ScalarOp::Neg:
    if (!is_floating(result))
      return make_int(result, -v[0].bits);
    count_flop();
    return ScalarValue::make(result, -v[0].as_double());
  case ScalarOp::Not:
    return make_int(ScalarKind::Bool, v[0].as_double() == 0);
  case ScalarOp::Cast:
    if (!is_floating(v[0].kind))
      return make_int(result, v[0].bits);
    return ScalarValue::make(result, v[0].as_double());
  case ScalarOp::Call: {
    // Every argument is converted to the result kind, as OpenCL's overloads do.
    std::array<double, 3> x{};
    for (std::size_t i = 0; i < a.size(); ++i)
      x[i] = ScalarValue::make(result, v[i].as_double()).real;
    const std::string& f = e.function();
    count_flop();
    double r = f == "sqrt"    ? std::sqrt(x[0])
               : f == "exp"   ? std::exp(x[0])
               : f == "log"   ? std::log(x[0])
               : f == "fabs"  ? std::fabs(x[0])
               : f == "floor" ? std::floor(x[0])
               : f == "ceil"  ? std::ceil(x[0])
               : f == "sin"   ? std::sin(x[0])
               : f == "cos"   ? std::cos(x[0])
               : f == "fmin"  ? std::fmin(x[0], x[1])
               : f == "fmax"  ? std::fmax(x[0], x[1])
                              : std::pow(x[0], x[1]);
    return ScalarValue::make(result, r);
  }
  default:
    break;
  }
  // Binary operators: both operands are converted to the common kind first (the result kind,
  // or for comparisons and logic the promoted operand kind).
  ScalarKind common = is_comparison(e.op()) || is_logic(e.op()) ? promote(k[0], k[1]) : result;
  if (!is_floating(common)) {
    // Integer arithmetic in 64 bits, wrapped to 32 like OpenCL C (i32 operands cannot
    // overflow int64 in +, -, *).
    int64_t p =
        make_int(common, is_floating(v[0].kind) ? to_int64(v[0].as_double()) : v[0].bits).bits;
    int64_t q =
        make_int(common, is_floating(v[1].kind) ? to_int64(v[1].as_double()) : v[1].bits).bits;
    switch (e.op()) {
    case ScalarOp::Add:
      return make_int(result, p + q);
    case ScalarOp::Sub:
      return make_int(result, p - q);
    case ScalarOp::Mul:
      return make_int(result, p * q);
    case ScalarOp::Div:
      if (q == 0)
        return fail(cat("integer division by zero (", p, " / ", q, ")"));
      return make_int(result, p / q); // truncates, as C
    case ScalarOp::Mod:
      if (q == 0)
        return fail(cat("integer modulo by zero (", p, " % ", q, ")"));
      return make_int(result, p % q);
    default:
      return make_int(result, comparison(e.op(), p, q));
    }
  }
  double p = ScalarValue::make(common, v[0].as_double()).real;
  double q = ScalarValue::make(common, v[1].as_double()).real;
  if (!is_comparison(e.op()) && !is_logic(e.op()))
    count_flop();
  switch (e.op()) {
  case ScalarOp::Add:
    return ScalarValue::make(result, p + q);
  case ScalarOp::Sub:
    return ScalarValue::make(result, p - q);
  case ScalarOp::Mul:
    return ScalarValue::make(result, p * q);
  case ScalarOp::Div:
    return ScalarValue::make(result, p / q);
  default:
    return make_int(result, comparison(e.op(), p, q));
  }
}

// The node kinds of `body` for `params`, typed (and checked) on its first evaluation: the
// interpreter evaluates one body at every point of a grid. The bodies evaluated last on this
// thread are kept (each with its expression, so that the nodes it keys on stay alive).
const NodeKinds& node_kinds(const ScalarExpr& body, const std::vector<ScalarKind>& params,
                            const std::string& context) {
  struct Typed {
    ScalarExpr body;
    std::vector<ScalarKind> params;
    NodeKinds kinds;
  };
  constexpr std::size_t kKept = 32;
  thread_local std::vector<std::unique_ptr<Typed>> kept;
  for (const auto& t : kept)
    if (t->body.identity() == body.identity() && t->params == params)
      return t->kinds;
  auto typed = std::make_unique<Typed>(Typed{body, params, {}});
  infer_into(body, params, context.empty() ? "user function" : context, typed->kinds);
  if (kept.size() == kKept)
    kept.erase(kept.begin());
  kept.push_back(std::move(typed));
  return kept.back()->kinds;
}

} // namespace

ScalarValue ScalarExpr::evaluate(const std::vector<ScalarValue>& params) const {
  return evaluate(params, "");
}

ScalarValue ScalarExpr::evaluate(const std::vector<ScalarValue>& params,
                                 const std::string& context) const {
  // Reused: this runs at every point of a grid, and nothing below evaluates another body.
  thread_local std::vector<ScalarKind> kinds;
  kinds.clear();
  for (const auto& p : params)
    kinds.push_back(p.kind);
  return eval_node(*this, params, node_kinds(*this, kinds, context), context);
}

} // namespace tessera
