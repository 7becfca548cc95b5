// JSON of scalar values and scalar expressions (user function bodies).
#include <cmath>
#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/JsonInteger.h"
#include "core/Scalar.h"
#include "core/ScalarTyping.h"

namespace tessera {

using namespace scalar;

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

namespace {

// Sums, differences and products chain to the left (((a + b) + c) + ...: a weighted sum of 729
// points is a chain 729 deep): such a chain is written as one node with every operand in order,
// its left fold, so that a file's depth does not grow with the terms (Python's json reader
// stops at about 1000 levels) and neither does the recursion that reads it.
bool chains(ScalarOp op) {
  return op == ScalarOp::Add || op == ScalarOp::Sub || op == ScalarOp::Mul;
}

std::vector<ScalarExpr> chain_operands(const ScalarExpr& e) {
  std::vector<ScalarExpr> reversed;
  const ScalarExpr* at = &e;
  while (at->op() == e.op() && at->args().size() == 2) {
    reversed.push_back(at->args()[1]);
    at = &at->args()[0];
  }
  reversed.push_back(*at);
  return {reversed.rbegin(), reversed.rend()};
}

} // namespace

void to_json(nlohmann::json& j, const ScalarExpr& e) {
  j = {{"op", op_name(e.op())}};
  if (chains(e.op())) {
    nlohmann::json args = nlohmann::json::array();
    for (const auto& a : chain_operands(e))
      args.push_back(a);
    j["args"] = std::move(args);
    return;
  }
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
  for (ScalarOp op : {ScalarOp::Add, ScalarOp::Sub, ScalarOp::Mul})
    if (name == op_name(op)) {
      if (args.size() < 2)
        bad(cat("'", name, "' needs 2 arguments or more (their left fold)"));
      ScalarExpr folded = args[0];
      for (std::size_t i = 1; i < args.size(); ++i)
        folded = ScalarExpr::binary(op, folded, args[i]);
      return folded;
    }
  for (ScalarOp op : {ScalarOp::Div, ScalarOp::Mod, ScalarOp::Lt, ScalarOp::Le, ScalarOp::Gt,
                      ScalarOp::Ge, ScalarOp::Eq, ScalarOp::Ne, ScalarOp::And, ScalarOp::Or})
    if (name == op_name(op)) {
      need(2);
      return ScalarExpr::binary(op, args[0], args[1]);
    }
  return bad("unknown op '" + name + "'");
}

} // namespace tessera