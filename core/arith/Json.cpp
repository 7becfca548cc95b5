// JSON form: {"cst":3} / {"var":"N","lo":...,"hi":...} / {"op":"add","args":[...]}.
// Reading goes through the simplifying operators, so the result is canonical.
#include <set>

#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "core/JsonInteger.h"
#include "core/arith/ArithNode.h"

namespace tessera {

namespace {

const char* op_name(ArithKind k) {
  switch (k) {
  case ArithKind::Add:
    return "add";
  case ArithKind::Mul:
    return "mul";
  case ArithKind::Div:
    return "div";
  case ArithKind::Mod:
    return "mod";
  case ArithKind::Min:
    return "min";
  case ArithKind::Max:
    return "max";
  case ArithKind::Lt:
    return "lt";
  case ArithKind::Le:
    return "le";
  case ArithKind::Eq:
    return "eq";
  case ArithKind::And:
    return "and";
  case ArithKind::Select:
    return "select";
  default:
    return "?";
  }
}

ArithExpr read(const nlohmann::json& j);

ArithExpr read_op(const std::string& op, const std::vector<ArithExpr>& a, const nlohmann::json& j) {
  auto arity = [&](std::size_t n) {
    if (a.size() != n)
      user_error(cat("arithmetic JSON: '", op, "' expects ", n, " arguments, got ", a.size(),
                     " in ", j.dump()));
  };
  static const std::set<std::string> known = {"add", "mul", "div", "mod", "min",   "max",
                                              "lt",  "le",  "eq",  "and", "select"};
  if (!known.count(op))
    user_error(cat("arithmetic JSON: unknown operator '", op, "' in ", j.dump()));
  if (op == "add" || op == "mul") {
    if (a.empty())
      user_error(cat("arithmetic JSON: '", op, "' needs arguments in ", j.dump()));
    ArithExpr r = a[0];
    for (std::size_t i = 1; i < a.size(); ++i)
      r = op == "add" ? r + a[i] : r * a[i];
    return r;
  }
  if (op == "select") {
    arity(3);
    return select(a[0], a[1], a[2]);
  }
  arity(2);
  if (op == "div")
    return a[0] / a[1];
  if (op == "mod")
    return a[0] % a[1];
  if (op == "min")
    return min(a[0], a[1]);
  if (op == "max")
    return max(a[0], a[1]);
  if (op == "lt")
    return lt(a[0], a[1]);
  if (op == "le")
    return le(a[0], a[1]);
  if (op == "eq")
    return eq(a[0], a[1]);
  if (op == "and")
    return logical_and(a[0], a[1]);
  user_error(cat("arithmetic JSON: unknown operator '", op, "' in ", j.dump()));
}

ArithExpr read(const nlohmann::json& j) {
  if (!j.is_object())
    user_error(cat("arithmetic JSON: expected an object, got ", j.dump()));
  if (j.contains("cst")) {
    auto c = json_integer<int64_t>(j["cst"]);
    if (!c)
      user_error(cat("arithmetic JSON: 'cst' must be an integer of 64 bits in ", j.dump()));
    return ArithExpr(*c);
  }
  if (j.contains("var")) {
    if (!j["var"].is_string())
      user_error(cat("arithmetic JSON: 'var' must be a string in ", j.dump()));
    std::optional<ArithExpr> lo, hi;
    if (j.contains("lo"))
      lo = read(j["lo"]);
    if (j.contains("hi"))
      hi = read(j["hi"]);
    return ArithExpr::var(j["var"].get<std::string>(), lo, hi);
  }
  if (j.contains("op")) {
    if (!j["op"].is_string() || !j.contains("args") || !j["args"].is_array())
      user_error(cat("arithmetic JSON: expected {\"op\": name, \"args\": [...]}, got ", j.dump()));
    std::vector<ArithExpr> args;
    for (const auto& a : j["args"])
      args.push_back(read(a));
    return read_op(j["op"].get<std::string>(), args, j);
  }
  user_error(cat("arithmetic JSON: expected \"cst\", \"var\" or \"op\" in ", j.dump()));
}

} // namespace

void to_json(nlohmann::json& j, const ArithExpr& e) {
  switch (e.kind()) {
  case ArithKind::Cst:
    j = nlohmann::json{{"cst", e.value()}};
    return;
  case ArithKind::Var:
    j = nlohmann::json{{"var", e.name()}};
    if (auto lo = e.lo())
      to_json(j["lo"], *lo);
    if (auto hi = e.hi())
      to_json(j["hi"], *hi);
    return;
  default: {
    nlohmann::json args = nlohmann::json::array();
    for (const ArithExpr& op : e.operands()) {
      nlohmann::json a;
      to_json(a, op);
      args.push_back(std::move(a));
    }
    j = nlohmann::json{{"op", op_name(e.kind())}, {"args", std::move(args)}};
  }
  }
}

void from_json(const nlohmann::json& j, ArithExpr& e) {
  e = read(j);
}

} // namespace tessera
