#include "core/Scalar.h"

#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "core/Error.h"

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

namespace {

const std::map<std::string, int>& math_functions() {
  static const std::map<std::string, int> table = {
      {"sqrt", 1}, {"exp", 1},  {"log", 1},  {"fabs", 1}, {"floor", 1}, {"ceil", 1},
      {"sin", 1},  {"cos", 1},  {"fmin", 2}, {"fmax", 2}, {"pow", 2},
  };
  return table;
}

int rank_of(ScalarKind k) {
  switch (k) {
  case ScalarKind::Bool: return 0;
  case ScalarKind::U8: return 1;
  case ScalarKind::I32: return 2;
  case ScalarKind::F32: return 3;
  case ScalarKind::F64: return 4;
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
  case ScalarOp::Add: return "+";
  case ScalarOp::Sub: return "-";
  case ScalarOp::Mul: return "*";
  case ScalarOp::Div: return "/";
  case ScalarOp::Mod: return "%";
  case ScalarOp::Lt: return "<";
  case ScalarOp::Le: return "<=";
  case ScalarOp::Gt: return ">";
  case ScalarOp::Ge: return ">=";
  case ScalarOp::Eq: return "==";
  case ScalarOp::Ne: return "!=";
  case ScalarOp::And: return "&&";
  case ScalarOp::Or: return "||";
  case ScalarOp::Neg: return "-";
  case ScalarOp::Not: return "!";
  default: return "?";
  }
}

const char* op_name(ScalarOp op) {
  switch (op) {
  case ScalarOp::Param: return "param";
  case ScalarOp::Const: return "const";
  case ScalarOp::Add: return "add";
  case ScalarOp::Sub: return "sub";
  case ScalarOp::Mul: return "mul";
  case ScalarOp::Div: return "div";
  case ScalarOp::Mod: return "mod";
  case ScalarOp::Neg: return "neg";
  case ScalarOp::Lt: return "lt";
  case ScalarOp::Le: return "le";
  case ScalarOp::Gt: return "gt";
  case ScalarOp::Ge: return "ge";
  case ScalarOp::Eq: return "eq";
  case ScalarOp::Ne: return "ne";
  case ScalarOp::And: return "and";
  case ScalarOp::Or: return "or";
  case ScalarOp::Not: return "not";
  case ScalarOp::Select: return "select";
  case ScalarOp::Call: return "call";
  case ScalarOp::Cast: return "cast";
  }
  return "?";
}

bool is_comparison(ScalarOp op) {
  return op == ScalarOp::Lt || op == ScalarOp::Le || op == ScalarOp::Gt || op == ScalarOp::Ge ||
         op == ScalarOp::Eq || op == ScalarOp::Ne;
}

bool is_logic(ScalarOp op) { return op == ScalarOp::And || op == ScalarOp::Or; }

// The kind a weak literal adopts next to an operand of kind `other`.
ScalarKind weak_kind(const ScalarExpr& e, ScalarKind own, ScalarKind other) {
  if (!(e.op() == ScalarOp::Const && e.is_weak())) return own;
  if (is_floating(own) && !is_floating(other)) return own; // 0.5 next to an int stays floating
  return other;
}

} // namespace

ScalarValue ScalarValue::make(ScalarKind kind, double value) {
  ScalarValue v;
  v.kind = kind;
  switch (kind) {
  case ScalarKind::F32: v.real = static_cast<double>(static_cast<float>(value)); break;
  case ScalarKind::F64: v.real = value; break;
  case ScalarKind::I32:
    v.bits = static_cast<int32_t>(static_cast<uint32_t>(static_cast<int64_t>(value)));
    break;
  case ScalarKind::U8: v.bits = static_cast<int64_t>(value) & 0xff; break;
  case ScalarKind::Bool: v.bits = value != 0 ? 1 : 0; break;
  }
  return v;
}

std::string ScalarValue::to_string() const {
  switch (kind) {
  case ScalarKind::F32:
  case ScalarKind::F64: {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.9g", real);
    std::string s = buf;
    if (s.find_first_of(".eEni") == std::string::npos) s += ".0";
    if (std::isinf(real)) s = real > 0 ? "INFINITY" : "-INFINITY";
    if (std::isnan(real)) s = "NAN";
    return kind == ScalarKind::F32 && std::isfinite(real) ? s + "f" : s;
  }
  case ScalarKind::Bool: return bits ? "true" : "false";
  case ScalarKind::I32:
  case ScalarKind::U8: return std::to_string(bits);
  }
  return "?";
}

ScalarExpr::ScalarExpr() : ScalarExpr(constant(ScalarValue::make(ScalarKind::I32, 0), false)) {}

ScalarExpr ScalarExpr::param(int index) {
  if (index < 0) internal_error("negative scalar parameter index");
  return ScalarExpr(std::make_shared<const ScalarNode>(ScalarNode{ScalarOp::Param, index}));
}

ScalarExpr ScalarExpr::constant(ScalarValue value, bool weak) {
  ScalarNode n{ScalarOp::Const};
  n.value = value;
  n.weak = weak;
  return ScalarExpr(std::make_shared<const ScalarNode>(std::move(n)));
}

ScalarExpr ScalarExpr::unary(ScalarOp op, ScalarExpr a) {
  if (op != ScalarOp::Neg && op != ScalarOp::Not) internal_error("not a unary scalar op");
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
  if (arity < 0) user_error(cat("unknown math function '", function, "' in a user function"));
  if (arity != static_cast<int>(args.size()))
    user_error(cat("math function '", function, "' takes ", arity, " argument(s), got ",
                   args.size()));
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

ScalarOp ScalarExpr::op() const { return node_->op; }
int ScalarExpr::param_index() const { return node_->index; }
const ScalarValue& ScalarExpr::value() const { return node_->value; }
bool ScalarExpr::is_weak() const { return node_->weak; }
const std::string& ScalarExpr::function() const { return node_->function; }
ScalarKind ScalarExpr::cast_kind() const { return node_->cast_to; }
const std::vector<ScalarExpr>& ScalarExpr::args() const { return node_->args; }

int math_function_arity(const std::string& name) {
  auto it = math_functions().find(name);
  return it == math_functions().end() ? -1 : it->second;
}

ScalarKind ScalarExpr::infer(const std::vector<ScalarKind>& params,
                             const std::string& context) const {
  const auto& a = args();
  switch (op()) {
  case ScalarOp::Param:
    if (param_index() >= static_cast<int>(params.size()))
      user_error(cat(context, ": the body uses parameter ", param_index(), " but only ",
                     params.size(), " argument(s) are given"));
    return params[param_index()];
  case ScalarOp::Const: return value().kind;
  case ScalarOp::Neg: {
    ScalarKind k = a[0].infer(params, context);
    return promote(k, k);
  }
  case ScalarOp::Not: a[0].infer(params, context); return ScalarKind::Bool;
  case ScalarOp::Cast: a[0].infer(params, context); return cast_kind();
  case ScalarOp::Call: {
    ScalarKind k = a[0].infer(params, context);
    for (std::size_t i = 1; i < a.size(); ++i) k = promote(k, a[i].infer(params, context));
    return is_floating(k) ? k : ScalarKind::F32; // math on integers is done in float
  }
  case ScalarOp::Select: {
    a[0].infer(params, context);
    ScalarKind x = a[1].infer(params, context), y = a[2].infer(params, context);
    x = weak_kind(a[1], x, y);
    y = weak_kind(a[2], y, x);
    return x == y ? x : promote(x, y);
  }
  default: { // binary operators
    ScalarKind x = a[0].infer(params, context), y = a[1].infer(params, context);
    ScalarKind xx = weak_kind(a[0], x, y), yy = weak_kind(a[1], y, x);
    if (op() == ScalarOp::Mod && (is_floating(xx) || is_floating(yy)))
      user_error(cat(context, ": '%' needs integer operands, got ", to_string(xx), " and ",
                     to_string(yy), " (use fmod-free formulations for floats)"));
    if (is_comparison(op()) || is_logic(op())) return ScalarKind::Bool;
    return promote(xx, yy);
  }
  }
}

namespace {

ScalarValue eval_node(const ScalarExpr& e, const std::vector<ScalarValue>& params,
                      const std::vector<ScalarKind>& kinds);

// Evaluates a child and converts it to `kind` (what C does implicitly).
ScalarValue as_kind(const ScalarValue& v, ScalarKind kind) {
  return ScalarValue::make(kind, v.as_double());
}

ScalarValue eval_node(const ScalarExpr& e, const std::vector<ScalarValue>& params,
                      const std::vector<ScalarKind>& kinds) {
  const auto& a = e.args();
  ScalarKind result = e.infer(kinds, "user function");
  switch (e.op()) {
  case ScalarOp::Param: return params[e.param_index()];
  case ScalarOp::Const: return e.value();
  case ScalarOp::Neg: return ScalarValue::make(result, -eval_node(a[0], params, kinds).as_double());
  case ScalarOp::Not:
    return ScalarValue::make(ScalarKind::Bool, eval_node(a[0], params, kinds).as_double() == 0);
  case ScalarOp::Cast: return as_kind(eval_node(a[0], params, kinds), result);
  case ScalarOp::Select: {
    bool c = eval_node(a[0], params, kinds).as_double() != 0;
    return as_kind(eval_node(a[c ? 1 : 2], params, kinds), result);
  }
  case ScalarOp::Call: {
    std::vector<double> x;
    for (const auto& arg : a) x.push_back(as_kind(eval_node(arg, params, kinds), result).real);
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
  default: break;
  }
  // Binary operators: both operands are converted to the common kind first.
  ScalarKind x = a[0].infer(kinds, "user function"), y = a[1].infer(kinds, "user function");
  ScalarKind common = is_comparison(e.op()) || is_logic(e.op())
                          ? promote(weak_kind(a[0], x, y), weak_kind(a[1], y, x))
                          : result;
  ScalarValue l = as_kind(eval_node(a[0], params, kinds), common);
  ScalarValue r = as_kind(eval_node(a[1], params, kinds), common);
  double p = l.as_double(), q = r.as_double();
  bool integral = !is_floating(common);
  switch (e.op()) {
  case ScalarOp::Add: return ScalarValue::make(result, p + q);
  case ScalarOp::Sub: return ScalarValue::make(result, p - q);
  case ScalarOp::Mul:
    if (integral) return ScalarValue::make(result, static_cast<double>(l.bits * r.bits));
    return ScalarValue::make(result, p * q);
  case ScalarOp::Div:
    if (integral) {
      if (r.bits == 0) user_error("integer division by zero in a user function");
      return ScalarValue::make(result, static_cast<double>(l.bits / r.bits)); // truncates, as C
    }
    return ScalarValue::make(result, p / q);
  case ScalarOp::Mod:
    if (r.bits == 0) user_error("integer modulo by zero in a user function");
    return ScalarValue::make(result, static_cast<double>(l.bits % r.bits));
  case ScalarOp::Lt: return ScalarValue::make(result, p < q);
  case ScalarOp::Le: return ScalarValue::make(result, p <= q);
  case ScalarOp::Gt: return ScalarValue::make(result, p > q);
  case ScalarOp::Ge: return ScalarValue::make(result, p >= q);
  case ScalarOp::Eq: return ScalarValue::make(result, p == q);
  case ScalarOp::Ne: return ScalarValue::make(result, p != q);
  case ScalarOp::And: return ScalarValue::make(result, p != 0 && q != 0);
  case ScalarOp::Or: return ScalarValue::make(result, p != 0 || q != 0);
  default: internal_error("unhandled scalar operator");
  }
}

} // namespace

ScalarValue ScalarExpr::evaluate(const std::vector<ScalarValue>& params) const {
  std::vector<ScalarKind> kinds;
  for (const auto& p : params) kinds.push_back(p.kind);
  return eval_node(*this, params, kinds);
}

std::string ScalarExpr::to_c(const std::vector<std::string>& names,
                             const std::vector<ScalarKind>& kinds) const {
  const auto& a = args();
  switch (op()) {
  case ScalarOp::Param: return names.at(param_index());
  case ScalarOp::Const: {
    if (!is_weak()) return value().to_string();
    // A weak literal is printed in the type it adopted, so that float code stays float.
    return ScalarValue::make(infer(kinds, "user function"), value().as_double()).to_string();
  }
  case ScalarOp::Neg:
  case ScalarOp::Not: return cat("(", op_symbol(op()), a[0].to_c(names, kinds), ")");
  case ScalarOp::Cast: return cat("((", opencl_name(cast_kind()), ")", a[0].to_c(names, kinds), ")");
  case ScalarOp::Select:
    return cat("(", a[0].to_c(names, kinds), " ? ", a[1].to_c(names, kinds), " : ",
               a[2].to_c(names, kinds), ")");
  case ScalarOp::Call: {
    std::string s = function() + "(";
    for (std::size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + a[i].to_c(names, kinds);
    return s + ")";
  }
  default: break;
  }
  // A weak literal beside another operand takes that operand's kind.
  auto operand = [&](int i) {
    const ScalarExpr& x = a[i];
    if (x.op() == ScalarOp::Const && x.is_weak()) {
      ScalarKind own = x.value().kind, other = a[1 - i].infer(kinds, "user function");
      return ScalarValue::make(weak_kind(x, own, other), x.value().as_double()).to_string();
    }
    return x.to_c(names, kinds);
  };
  return cat("(", operand(0), " ", op_symbol(op()), " ", operand(1), ")");
}

int ScalarExpr::max_param_index() const {
  int m = op() == ScalarOp::Param ? param_index() : -1;
  for (const auto& a : args()) m = std::max(m, a.max_param_index());
  return m;
}

void to_json(nlohmann::json& j, const ScalarValue& v) {
  j = {{"type", to_string(v.kind)}, {"value", v.as_double()}};
}

ScalarValue scalar_value_from_json(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("type") || !j.contains("value") || !j["type"].is_string() ||
      !j["value"].is_number())
    user_error(cat("invalid scalar value in JSON: ", j.dump()));
  return ScalarValue::make(scalar_kind_from_string(j["type"]), j["value"].get<double>());
}

void to_json(nlohmann::json& j, const ScalarExpr& e) {
  j = {{"op", op_name(e.op())}};
  switch (e.op()) {
  case ScalarOp::Param: j["index"] = e.param_index(); break;
  case ScalarOp::Const:
    j["value"] = e.value();
    j["weak"] = e.is_weak();
    break;
  case ScalarOp::Call: j["function"] = e.function(); break;
  case ScalarOp::Cast: j["to"] = to_string(e.cast_kind()); break;
  default: break;
  }
  if (!e.args().empty()) {
    nlohmann::json args = nlohmann::json::array();
    for (const auto& a : e.args()) args.push_back(a);
    j["args"] = args;
  }
}

ScalarExpr scalar_expr_from_json(const nlohmann::json& j) {
  auto bad = [&](const std::string& why) -> ScalarExpr {
    user_error(cat("invalid scalar expression in JSON (", why, "): ", j.dump()));
  };
  if (!j.is_object() || !j.contains("op") || !j["op"].is_string()) return bad("no \"op\"");
  std::string name = j["op"];
  std::vector<ScalarExpr> args;
  if (j.contains("args")) {
    if (!j["args"].is_array()) return bad("\"args\" is not an array");
    for (const auto& a : j["args"]) args.push_back(scalar_expr_from_json(a));
  }
  auto need = [&](std::size_t n) {
    if (args.size() != n) bad(cat("'", name, "' needs ", n, " argument(s)"));
  };
  if (name == "param") {
    if (!j.contains("index") || !j["index"].is_number_integer() || j["index"].get<int>() < 0)
      return bad("param needs a non-negative \"index\"");
    return ScalarExpr::param(j["index"].get<int>());
  }
  if (name == "const") {
    if (!j.contains("value")) return bad("const needs a \"value\"");
    return ScalarExpr::constant(scalar_value_from_json(j["value"]), j.value("weak", false));
  }
  if (name == "call") {
    if (!j.contains("function") || !j["function"].is_string()) return bad("call needs a function");
    return ScalarExpr::call(j["function"], std::move(args));
  }
  if (name == "cast") {
    need(1);
    if (!j.contains("to") || !j["to"].is_string()) return bad("cast needs \"to\"");
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
