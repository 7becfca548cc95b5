#include "core/Scalar.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/JsonInteger.h"
#include "core/ScalarTyping.h"

namespace tessera {

struct ScalarNode {
  ScalarOp op;
  int index = 0;
  ScalarValue value;
  bool weak = false;
  std::string function;
  ScalarKind cast_to = ScalarKind::F32;
  std::vector<ScalarExpr> args;
};

namespace scalar {

const std::map<std::string, int>& math_functions() {
  static const std::map<std::string, int> table = {
      {"sqrt", 1}, {"exp", 1}, {"log", 1},  {"fabs", 1}, {"floor", 1}, {"ceil", 1},
      {"sin", 1},  {"cos", 1}, {"fmin", 2}, {"fmax", 2}, {"pow", 2},
  };
  return table;
}

int rank_of(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool:
    return 0;
  case ScalarKind::U8:
    return 1;
  case ScalarKind::I32:
    return 2;
  case ScalarKind::F32:
    return 3;
  case ScalarKind::F64:
    return 4;
  }
  return 0;
}

// C's usual arithmetic conversions, restricted to tessera's scalars: small integers promote to
// i32, then the wider of the two wins.
ScalarKind promote(ScalarKind a, ScalarKind b) {
  ScalarKind wider = rank_of(a) >= rank_of(b) ? a : b;
  return rank_of(wider) < rank_of(ScalarKind::I32) ? ScalarKind::I32 : wider;
}

const char* op_symbol(ScalarOp op) {
  switch (op) {
  case ScalarOp::Add:
    return "+";
  case ScalarOp::Sub:
    return "-";
  case ScalarOp::Mul:
    return "*";
  case ScalarOp::Div:
    return "/";
  case ScalarOp::Mod:
    return "%";
  case ScalarOp::Lt:
    return "<";
  case ScalarOp::Le:
    return "<=";
  case ScalarOp::Gt:
    return ">";
  case ScalarOp::Ge:
    return ">=";
  case ScalarOp::Eq:
    return "==";
  case ScalarOp::Ne:
    return "!=";
  case ScalarOp::And:
    return "&&";
  case ScalarOp::Or:
    return "||";
  case ScalarOp::Neg:
    return "-";
  case ScalarOp::Not:
    return "!";
  default:
    return "?";
  }
}

const char* op_name(ScalarOp op) {
  switch (op) {
  case ScalarOp::Param:
    return "param";
  case ScalarOp::Const:
    return "const";
  case ScalarOp::Add:
    return "add";
  case ScalarOp::Sub:
    return "sub";
  case ScalarOp::Mul:
    return "mul";
  case ScalarOp::Div:
    return "div";
  case ScalarOp::Mod:
    return "mod";
  case ScalarOp::Neg:
    return "neg";
  case ScalarOp::Lt:
    return "lt";
  case ScalarOp::Le:
    return "le";
  case ScalarOp::Gt:
    return "gt";
  case ScalarOp::Ge:
    return "ge";
  case ScalarOp::Eq:
    return "eq";
  case ScalarOp::Ne:
    return "ne";
  case ScalarOp::And:
    return "and";
  case ScalarOp::Or:
    return "or";
  case ScalarOp::Not:
    return "not";
  case ScalarOp::Select:
    return "select";
  case ScalarOp::Call:
    return "call";
  case ScalarOp::Cast:
    return "cast";
  }
  return "?";
}

bool is_comparison(ScalarOp op) {
  return op == ScalarOp::Lt || op == ScalarOp::Le || op == ScalarOp::Gt || op == ScalarOp::Ge ||
         op == ScalarOp::Eq || op == ScalarOp::Ne;
}

bool is_logic(ScalarOp op) {
  return op == ScalarOp::And || op == ScalarOp::Or;
}

bool is_weak_literal(const ScalarExpr& e) {
  return e.op() == ScalarOp::Const && e.is_weak();
}

// The kind a weak literal adopts next to an operand of kind `other`.
ScalarKind weak_kind(const ScalarExpr& e, ScalarKind own, ScalarKind other) {
  if (!is_weak_literal(e))
    return own;
  if (is_floating(own) && !is_floating(other))
    return own; // 0.5 next to an int stays floating
  // An integer literal next to a u8 or a bool stays i32: C promotes both to int anyway, and the
  // literal must not be truncated to 8 bits (u * 300).
  if (!is_floating(own) && (other == ScalarKind::U8 || other == ScalarKind::Bool))
    return own;
  return other;
}

// The kinds at which the operands of `e` are used, given their own kinds: weak literals adopt
// the kind of the other operands (of a binary operator, of the two branches of a select, of
// the other arguments of a math function).
void use_operand_kinds(const ScalarExpr& e, std::span<ScalarKind> k) {
  const auto& a = e.args();
  switch (e.op()) {
  case ScalarOp::Param:
  case ScalarOp::Const:
  case ScalarOp::Neg:
  case ScalarOp::Not:
  case ScalarOp::Cast:
    return;
  case ScalarOp::Select:
    k[1] = weak_kind(a[1], k[1], k[2]);
    k[2] = weak_kind(a[2], k[2], k[1]);
    return;
  case ScalarOp::Call: {
    // The common kind of the arguments that are not weak literals.
    bool any = false;
    ScalarKind strong = ScalarKind::Bool;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!is_weak_literal(a[i])) {
        strong = any ? promote(strong, k[i]) : k[i];
        any = true;
      }
    if (any)
      for (std::size_t i = 0; i < a.size(); ++i)
        k[i] = weak_kind(a[i], k[i], strong);
    return;
  }
  default: { // binary operators
    ScalarKind x = k[0], y = k[1];
    k[0] = weak_kind(a[0], x, y);
    k[1] = weak_kind(a[1], y, x);
    return;
  }
  }
}

// The result kind of `e` from the kinds its operands are used at (see use_operand_kinds); checks
// the operand kinds of '%'.
ScalarKind result_kind(const ScalarExpr& e, std::span<const ScalarKind> k,
                       const std::string& context) {
  switch (e.op()) {
  case ScalarOp::Param:
  case ScalarOp::Const:
    internal_error("result_kind of a leaf");
  case ScalarOp::Neg:
    return promote(k[0], k[0]);
  case ScalarOp::Not:
    return ScalarKind::Bool;
  case ScalarOp::Cast:
    return e.cast_kind();
  case ScalarOp::Call: {
    ScalarKind r = k[0];
    for (std::size_t i = 1; i < k.size(); ++i)
      r = promote(r, k[i]);
    return is_floating(r) ? r : ScalarKind::F32; // math on integers is done in float
  }
  case ScalarOp::Select:
    return k[1] == k[2] ? k[1] : promote(k[1], k[2]);
  default: // binary operators
    if (e.op() == ScalarOp::Mod && (is_floating(k[0]) || is_floating(k[1])))
      user_error(cat(context, ": '%' needs integer operands, got ", to_string(k[0]), " and ",
                     to_string(k[1])));
    if (is_comparison(e.op()) || is_logic(e.op()))
      return ScalarKind::Bool;
    return promote(k[0], k[1]);
  }
}

// An integer result wrapped to `kind` like OpenCL C (two's complement).
ScalarValue make_int(ScalarKind kind, int64_t value) {
  ScalarValue v;
  v.kind = kind;
  switch (kind) {
  case ScalarKind::I32:
    v.bits = static_cast<int32_t>(static_cast<uint32_t>(value));
    break;
  case ScalarKind::U8:
    v.bits = static_cast<int64_t>(static_cast<uint8_t>(value));
    break;
  case ScalarKind::Bool:
    v.bits = value != 0 ? 1 : 0;
    break;
  case ScalarKind::F32:
  case ScalarKind::F64:
    return ScalarValue::make(kind, static_cast<double>(value));
  }
  return v;
}

// A double converted to an integer without undefined behaviour: NaN gives 0, values beyond the
// int64 range saturate (OpenCL leaves out-of-range conversions implementation-defined).
int64_t to_int64(double value) {
  if (std::isnan(value))
    return 0;
  if (value >= 9.2e18)
    return INT64_MAX;
  if (value <= -9.2e18)
    return INT64_MIN;
  return static_cast<int64_t>(value);
}

} // namespace scalar

using namespace scalar;

ScalarValue ScalarValue::make(ScalarKind kind, double value) {
  ScalarValue v;
  v.kind = kind;
  switch (kind) {
  case ScalarKind::F32:
    v.real = static_cast<double>(static_cast<float>(value));
    break;
  case ScalarKind::F64:
    v.real = value;
    break;
  case ScalarKind::I32:
  case ScalarKind::U8:
    return make_int(kind, to_int64(value));
  case ScalarKind::Bool:
    v.bits = value != 0 ? 1 : 0;
    break;
  }
  return v;
}

std::string ScalarValue::to_string() const {
  switch (kind) {
  case ScalarKind::F32:
  case ScalarKind::F64: {
    // f32: 9 significant digits identify every float; f64: the shortest text that reads back
    // as the same double (up to 17 digits), so that a kernel computes with the exact constant.
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", real);
    for (int digits = 9; kind == ScalarKind::F64 && digits <= 17; ++digits) {
      std::snprintf(buf, sizeof buf, "%.*g", digits, real);
      if (std::strtod(buf, nullptr) == real || !std::isfinite(real))
        break;
    }
    std::string s = buf;
    if (s.find_first_of(".eEni") == std::string::npos)
      s += ".0";
    if (std::isinf(real))
      s = real > 0 ? "INFINITY" : "-INFINITY";
    if (std::isnan(real))
      s = "NAN";
    return kind == ScalarKind::F32 && std::isfinite(real) ? s + "f" : s;
  }
  case ScalarKind::Bool:
    return bits ? "true" : "false";
  case ScalarKind::I32:
  case ScalarKind::U8:
    return std::to_string(bits);
  }
  return "?";
}

ScalarExpr::ScalarExpr() : ScalarExpr(constant(ScalarValue::make(ScalarKind::I32, 0), false)) {}

ScalarExpr ScalarExpr::param(int index) {
  if (index < 0)
    internal_error("negative scalar parameter index");
  return ScalarExpr(std::make_shared<const ScalarNode>(ScalarNode{ScalarOp::Param, index}));
}

ScalarExpr ScalarExpr::constant(ScalarValue value, bool weak) {
  ScalarNode n{ScalarOp::Const};
  n.value = value;
  n.weak = weak;
  return ScalarExpr(std::make_shared<const ScalarNode>(std::move(n)));
}

ScalarExpr ScalarExpr::unary(ScalarOp op, ScalarExpr a) {
  if (op != ScalarOp::Neg && op != ScalarOp::Not)
    internal_error("not a unary scalar op");
  ScalarNode n{op};
  n.args = {std::move(a)};
  return ScalarExpr(std::make_shared<const ScalarNode>(std::move(n)));
}

ScalarExpr ScalarExpr::binary(ScalarOp op, ScalarExpr a, ScalarExpr b) {
  ScalarNode n{op};
  n.args = {std::move(a), std::move(b)};
  return ScalarExpr(std::make_shared<const ScalarNode>(std::move(n)));
}

ScalarExpr ScalarExpr::select(ScalarExpr cond, ScalarExpr a, ScalarExpr b) {
  ScalarNode n{ScalarOp::Select};
  n.args = {std::move(cond), std::move(a), std::move(b)};
  return ScalarExpr(std::make_shared<const ScalarNode>(std::move(n)));
}

ScalarExpr ScalarExpr::call(std::string function, std::vector<ScalarExpr> args) {
  int arity = math_function_arity(function);
  if (arity < 0) {
    std::string known;
    for (const auto& [name, n] : math_functions())
      known += (known.empty() ? "" : ", ") + name;
    user_error(cat("unknown math function '", function, "' (known: ", known, ")"));
  }
  if (arity != static_cast<int>(args.size()))
    user_error(
        cat("math function '", function, "' takes ", arity, " argument(s), got ", args.size()));
  ScalarNode n{ScalarOp::Call};
  n.function = std::move(function);
  n.args = std::move(args);
  return ScalarExpr(std::make_shared<const ScalarNode>(std::move(n)));
}

ScalarExpr ScalarExpr::cast(ScalarKind to, ScalarExpr a) {
  ScalarNode n{ScalarOp::Cast};
  n.cast_to = to;
  n.args = {std::move(a)};
  return ScalarExpr(std::make_shared<const ScalarNode>(std::move(n)));
}

ScalarExpr rename_params(const ScalarExpr& e, const std::function<int(int)>& rename) {
  std::vector<ScalarExpr> args;
  for (const auto& a : e.args())
    args.push_back(rename_params(a, rename));
  switch (e.op()) {
  case ScalarOp::Param:
    return ScalarExpr::param(rename(e.param_index()));
  case ScalarOp::Const:
    return e;
  case ScalarOp::Select:
    return ScalarExpr::select(args[0], args[1], args[2]);
  case ScalarOp::Call:
    return ScalarExpr::call(e.function(), args);
  case ScalarOp::Cast:
    return ScalarExpr::cast(e.cast_kind(), args[0]);
  default:
    return args.size() == 1 ? ScalarExpr::unary(e.op(), args[0])
                            : ScalarExpr::binary(e.op(), args[0], args[1]);
  }
}

ScalarOp ScalarExpr::op() const {
  return node_->op;
}
int ScalarExpr::param_index() const {
  return node_->index;
}
const ScalarValue& ScalarExpr::value() const {
  return node_->value;
}
bool ScalarExpr::is_weak() const {
  return node_->weak;
}
const std::string& ScalarExpr::function() const {
  return node_->function;
}
ScalarKind ScalarExpr::cast_kind() const {
  return node_->cast_to;
}
const std::vector<ScalarExpr>& ScalarExpr::args() const {
  return node_->args;
}

int math_function_arity(const std::string& name) {
  auto it = math_functions().find(name);
  return it == math_functions().end() ? -1 : it->second;
}

ScalarKind scalar::infer_into(const ScalarExpr& e, const std::vector<ScalarKind>& params,
                              const std::string& context, NodeKinds& kinds) {
  if (auto known = kinds.find(e.identity()); known != kinds.end())
    return known->second;
  ScalarKind result;
  switch (e.op()) {
  case ScalarOp::Param:
    if (e.param_index() >= static_cast<int>(params.size()))
      user_error(cat(context, ": the body uses parameter ", e.param_index(), " but only ",
                     params.size(), " argument(s) are given"));
    result = params[e.param_index()];
    break;
  case ScalarOp::Const:
    result = e.value().kind;
    break;
  default: {
    std::vector<ScalarKind> k;
    for (const auto& a : e.args())
      k.push_back(infer_into(a, params, context, kinds));
    use_operand_kinds(e, k);
    result = result_kind(e, k, context);
  }
  }
  kinds.emplace(e.identity(), result);
  return result;
}

ScalarKind ScalarExpr::infer(const std::vector<ScalarKind>& params,
                             const std::string& context) const {
  scalar::NodeKinds kinds;
  return scalar::infer_into(*this, params, context, kinds);
}

int ScalarExpr::max_param_index() const {
  int m = op() == ScalarOp::Param ? param_index() : -1;
  for (const auto& a : args())
    m = std::max(m, a.max_param_index());
  return m;
}

} // namespace tessera
