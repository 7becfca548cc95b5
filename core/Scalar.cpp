#include "core/Scalar.h"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/JsonInteger.h"
#include "core/ScalarRules.h"

namespace tessera {

using namespace scalar_rules;

struct ScalarNode {
  ScalarOp op;
  int index = 0;
  ScalarValue value;
  bool weak = false;
  std::string function;
  ScalarKind cast_to = ScalarKind::F32;
  std::vector<ScalarExpr> args;
};

namespace {

const std::map<std::string, int>& math_functions() {
  static const std::map<std::string, int> table = {
      {"sqrt", 1}, {"exp", 1}, {"log", 1},  {"fabs", 1}, {"floor", 1}, {"ceil", 1},
      {"sin", 1},  {"cos", 1}, {"fmin", 2}, {"fmax", 2}, {"pow", 2},
  };
  return table;
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

} // namespace

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

ScalarKind ScalarExpr::infer(const std::vector<ScalarKind>& params,
                             const std::string& context) const {
  switch (op()) {
  case ScalarOp::Param:
    if (param_index() >= static_cast<int>(params.size()))
      user_error(cat(context, ": the body uses parameter ", param_index(), " but only ",
                     params.size(), " argument(s) are given"));
    return params[param_index()];
  case ScalarOp::Const:
    return value().kind;
  default:
    break;
  }
  std::vector<ScalarKind> k;
  for (const auto& a : args())
    k.push_back(a.infer(params, context));
  return result_kind(*this, operand_kinds(*this, std::move(k)), context);
}

namespace {

// Evaluates `e`; the kind of the value returned is the kind infer() gives (the body has been
// checked by infer() once, so kinds are computed from the operands' values here). `kinds` are
// the parameters' kinds, for typing the branch a select does not evaluate.
ScalarValue eval_node(const ScalarExpr& e, const std::vector<ScalarValue>& params,
                      const std::vector<ScalarKind>& kinds, const std::string& context) {
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
    std::vector<ScalarKind> k = {ScalarKind::Bool, ScalarKind::Bool, ScalarKind::Bool};
    k[taken ? 1 : 2] = v.kind;
    k[taken ? 2 : 1] = a[taken ? 2 : 1].infer(kinds, context);
    k = operand_kinds(e, std::move(k));
    return ScalarValue::make(result_kind(e, k, context), v.as_double());
  }
  default:
    break;
  }
  std::vector<ScalarValue> v;
  std::vector<ScalarKind> k;
  for (const auto& arg : a) {
    v.push_back(eval_node(arg, params, kinds, context));
    k.push_back(v.back().kind);
  }
  k = operand_kinds(e, std::move(k));
  ScalarKind result = result_kind(e, k, context);
  switch (e.op()) {
  case ScalarOp::Neg:
    if (!is_floating(result))
      return make_int(result, -v[0].bits);
    return ScalarValue::make(result, -v[0].as_double());
  case ScalarOp::Not:
    return make_int(ScalarKind::Bool, v[0].as_double() == 0);
  case ScalarOp::Cast:
    if (!is_floating(v[0].kind))
      return make_int(result, v[0].bits);
    return ScalarValue::make(result, v[0].as_double());
  case ScalarOp::Call: {
    // Every argument is converted to the result kind, as OpenCL's overloads do.
    std::vector<double> x;
    for (const auto& arg : v)
      x.push_back(ScalarValue::make(result, arg.as_double()).real);
    const std::string& f = e.function();
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
    case ScalarOp::Lt:
      return make_int(result, p < q);
    case ScalarOp::Le:
      return make_int(result, p <= q);
    case ScalarOp::Gt:
      return make_int(result, p > q);
    case ScalarOp::Ge:
      return make_int(result, p >= q);
    case ScalarOp::Eq:
      return make_int(result, p == q);
    case ScalarOp::Ne:
      return make_int(result, p != q);
    case ScalarOp::And:
      return make_int(result, p != 0 && q != 0);
    case ScalarOp::Or:
      return make_int(result, p != 0 || q != 0);
    default:
      internal_error("unhandled scalar operator");
    }
  }
  double p = ScalarValue::make(common, v[0].as_double()).real;
  double q = ScalarValue::make(common, v[1].as_double()).real;
  switch (e.op()) {
  case ScalarOp::Add:
    return ScalarValue::make(result, p + q);
  case ScalarOp::Sub:
    return ScalarValue::make(result, p - q);
  case ScalarOp::Mul:
    return ScalarValue::make(result, p * q);
  case ScalarOp::Div:
    return ScalarValue::make(result, p / q);
  case ScalarOp::Lt:
    return make_int(result, p < q);
  case ScalarOp::Le:
    return make_int(result, p <= q);
  case ScalarOp::Gt:
    return make_int(result, p > q);
  case ScalarOp::Ge:
    return make_int(result, p >= q);
  case ScalarOp::Eq:
    return make_int(result, p == q);
  case ScalarOp::Ne:
    return make_int(result, p != q);
  case ScalarOp::And:
    return make_int(result, p != 0 && q != 0);
  case ScalarOp::Or:
    return make_int(result, p != 0 || q != 0);
  default:
    internal_error("unhandled scalar operator");
  }
}

} // namespace

ScalarValue ScalarExpr::evaluate(const std::vector<ScalarValue>& params) const {
  return evaluate(params, "");
}

ScalarValue ScalarExpr::evaluate(const std::vector<ScalarValue>& params,
                                 const std::string& context) const {
  std::vector<ScalarKind> kinds;
  for (const auto& p : params)
    kinds.push_back(p.kind);
  infer(kinds, context.empty() ? "user function" : context); // checks the body once
  return eval_node(*this, params, kinds, context);
}

int ScalarExpr::max_param_index() const {
  int m = op() == ScalarOp::Param ? param_index() : -1;
  for (const auto& a : args())
    m = std::max(m, a.max_param_index());
  return m;
}

// JSON numbers cannot hold infinities and NaN: those are written as "inf", "-inf" and "nan".
void to_json(nlohmann::json& j, const ScalarValue& v) {
  double x = v.as_double();
  if (std::isnan(x))
    j = {{"type", to_string(v.kind)}, {"value", "nan"}};
  else if (std::isinf(x))
    j = {{"type", to_string(v.kind)}, {"value", x > 0 ? "inf" : "-inf"}};
  else
    j = {{"type", to_string(v.kind)}, {"value", x}};
}

ScalarValue scalar_value_from_json(const nlohmann::json& j) {
  auto bad = [&]() -> ScalarValue { user_error(cat("invalid scalar value in JSON: ", j.dump())); };
  if (!j.is_object() || !j.contains("type") || !j.contains("value") || !j["type"].is_string())
    return bad();
  ScalarKind kind = scalar_kind_from_string(j["type"]);
  const nlohmann::json& value = j["value"];
  if (value.is_string() && is_floating(kind)) {
    const std::string& text = value.get_ref<const std::string&>();
    if (text == "inf")
      return ScalarValue::make(kind, std::numeric_limits<double>::infinity());
    if (text == "-inf")
      return ScalarValue::make(kind, -std::numeric_limits<double>::infinity());
    if (text == "nan")
      return ScalarValue::make(kind, std::numeric_limits<double>::quiet_NaN());
    return bad();
  }
  if (!value.is_number())
    return bad();
  return ScalarValue::make(kind, value.get<double>());
}

void to_json(nlohmann::json& j, const ScalarExpr& e) {
  j = {{"op", op_name(e.op())}};
  switch (e.op()) {
  case ScalarOp::Param:
    j["index"] = e.param_index();
    break;
  case ScalarOp::Const:
    j["value"] = e.value();
    j["weak"] = e.is_weak();
    break;
  case ScalarOp::Call:
    j["function"] = e.function();
    break;
  case ScalarOp::Cast:
    j["to"] = to_string(e.cast_kind());
    break;
  default:
    break;
  }
  if (!e.args().empty()) {
    nlohmann::json args = nlohmann::json::array();
    for (const auto& a : e.args())
      args.push_back(a);
    j["args"] = args;
  }
}

ScalarExpr scalar_expr_from_json(const nlohmann::json& j) {
  auto bad = [&](const std::string& why) -> ScalarExpr {
    user_error(cat("invalid scalar expression in JSON (", why, "): ", j.dump()));
  };
  if (!j.is_object() || !j.contains("op") || !j["op"].is_string())
    return bad("no \"op\"");
  std::string name = j["op"];
  std::vector<ScalarExpr> args;
  if (j.contains("args")) {
    if (!j["args"].is_array())
      return bad("\"args\" is not an array");
    for (const auto& a : j["args"])
      args.push_back(scalar_expr_from_json(a));
  }
  auto need = [&](std::size_t n) {
    if (args.size() != n)
      bad(cat("'", name, "' needs ", n, " argument(s)"));
  };
  if (name == "param") {
    auto index = j.contains("index") ? json_integer<int>(j["index"]) : std::nullopt;
    if (!index || *index < 0)
      return bad("param needs a non-negative \"index\" of 32 bits");
    return ScalarExpr::param(*index);
  }
  if (name == "const") {
    if (!j.contains("value"))
      return bad("const needs a \"value\"");
    return ScalarExpr::constant(scalar_value_from_json(j["value"]), j.value("weak", false));
  }
  if (name == "call") {
    if (!j.contains("function") || !j["function"].is_string())
      return bad("call needs a function");
    return ScalarExpr::call(j["function"], std::move(args));
  }
  if (name == "cast") {
    need(1);
    if (!j.contains("to") || !j["to"].is_string())
      return bad("cast needs \"to\"");
    return ScalarExpr::cast(scalar_kind_from_string(j["to"]), args[0]);
  }
  if (name == "select") {
    need(3);
    return ScalarExpr::select(args[0], args[1], args[2]);
  }
  for (ScalarOp op : {ScalarOp::Neg, ScalarOp::Not})
    if (name == op_name(op)) {
      need(1);
      return ScalarExpr::unary(op, args[0]);
    }
  for (ScalarOp op : {ScalarOp::Add, ScalarOp::Sub, ScalarOp::Mul, ScalarOp::Div, ScalarOp::Mod,
                      ScalarOp::Lt, ScalarOp::Le, ScalarOp::Gt, ScalarOp::Ge, ScalarOp::Eq,
                      ScalarOp::Ne, ScalarOp::And, ScalarOp::Or})
    if (name == op_name(op)) {
      need(2);
      return ScalarExpr::binary(op, args[0], args[1]);
    }
  return bad("unknown op '" + name + "'");
}

} // namespace tessera
