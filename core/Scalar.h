// The scalar language used inside user functions.
//
// A user function body is a small expression tree over its parameters: arithmetic, comparisons,
// logic, select, math functions and casts. The interpreter evaluates it exactly as OpenCL C
// would (f32 results are rounded to float after every operation, integer division truncates
// like C); the code generator prints it as OpenCL C.
//
// Typing follows C's usual arithmetic conversions (bool < u8 < i32 < f32 < f64), except that a
// literal written in C++ (`x * 0.5`, `fmax(x, 0.5)`) is "weak" and takes the type of the other
// operand(s), so a user function written once works on f32 and f64 data alike (an integer
// literal next to a u8 or bool stays i32, as C promotes both to int). Integer arithmetic wraps
// like OpenCL C (two's complement, 32 bits).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/Type.h"

namespace tessera {

// A scalar value tagged with its kind. Integers and bools are held exactly in `bits`, floating
// values in `real` (f32 values are always representable as float).
struct ScalarValue {
  ScalarKind kind = ScalarKind::F32;
  double real = 0;
  int64_t bits = 0;

  static ScalarValue make(ScalarKind kind, double value); // rounds/wraps to the kind
  double as_double() const { return is_floating(kind) ? real : static_cast<double>(bits); }
  std::string to_string() const; // "0.5f", "3", "true"
  bool operator==(const ScalarValue& o) const {
    return kind == o.kind && as_double() == o.as_double();
  }
};

enum class ScalarOp {
  Param,
  Const,
  Add,
  Sub,
  Mul,
  Div,
  Mod,
  Neg,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  And,
  Or,
  Not,
  Select,
  Call,
  Cast
};

struct ScalarNode;

class ScalarExpr {
public:
  ScalarExpr(); // the constant 0 (i32)
  static ScalarExpr param(int index);
  static ScalarExpr constant(ScalarValue value, bool weak);
  static ScalarExpr unary(ScalarOp op, ScalarExpr a);
  static ScalarExpr binary(ScalarOp op, ScalarExpr a, ScalarExpr b);
  static ScalarExpr select(ScalarExpr cond, ScalarExpr a, ScalarExpr b);
  static ScalarExpr call(std::string function, std::vector<ScalarExpr> args); // sqrt, exp, ...
  static ScalarExpr cast(ScalarKind to, ScalarExpr a);

  ScalarOp op() const;
  int param_index() const;
  const ScalarValue& value() const;
  bool is_weak() const;
  const std::string& function() const;
  ScalarKind cast_kind() const;
  const std::vector<ScalarExpr>& args() const;

  // The node's identity: the same for copies of one expression (memo tables key on it).
  const void* identity() const { return node_.get(); }
  // Result kind for the given parameter kinds; throws Error naming `context` on bad input.
  ScalarKind infer(const std::vector<ScalarKind>& params, const std::string& context) const;
  // Exact evaluation with the OpenCL C semantics described above. Errors (integer division by
  // zero) name `context` when one is given, e.g. "UserFun 'div'".
  ScalarValue evaluate(const std::vector<ScalarValue>& params) const;
  ScalarValue evaluate(const std::vector<ScalarValue>& params, const std::string& context) const;
  // Parameters referenced, for arity checks.
  int max_param_index() const;

private:
  explicit ScalarExpr(std::shared_ptr<const ScalarNode> n) : node_(std::move(n)) {}
  std::shared_ptr<const ScalarNode> node_;
};

// `e` with parameter i renamed to rename(i) (the same tree otherwise): a body moved into a
// function whose parameters are ordered otherwise.
ScalarExpr rename_params(const ScalarExpr& e, const std::function<int(int)>& rename);

// Math functions accepted by ScalarExpr::call, with their arity.
int math_function_arity(const std::string& name); // -1 when unknown

void to_json(nlohmann::json& j, const ScalarExpr& e);
ScalarExpr scalar_expr_from_json(const nlohmann::json& j);
void to_json(nlohmann::json& j, const ScalarValue& v);
ScalarValue scalar_value_from_json(const nlohmann::json& j);

// A named user function: `arity` parameters, optionally with declared kinds, and a body.
struct UserFunDef {
  std::string name;
  int arity = 0;
  std::vector<ScalarKind> signature; // empty: polymorphic, typed at each use
  ScalarExpr body;
  // The parameters' names in generated code (empty: a, b, c, ...); identifiers, one per
  // parameter. They do not change the function's meaning, hash or equality.
  std::vector<std::string> param_names;
};

} // namespace tessera
