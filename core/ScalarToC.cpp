// The OpenCL C text of a scalar expression (the body of a user function).
#include "core/Error.h"
#include "core/Scalar.h"
#include "core/ScalarRules.h"
#include "core/Type.h"

namespace tessera {

using namespace scalar_rules;

std::string ScalarExpr::to_c(const std::vector<std::string>& names,
                             const std::vector<ScalarKind>& kinds) const {
  const auto& a = args();
  switch (op()) {
  case ScalarOp::Param:
    return names.at(param_index());
  case ScalarOp::Const:
    return value().to_string();
  default:
    break;
  }
  // The kinds the operands are used at: a weak literal is printed in the kind it adopted, so
  // that float code stays float.
  std::vector<ScalarKind> own;
  for (const auto& x : a)
    own.push_back(x.infer(kinds, "user function"));
  std::vector<ScalarKind> used = operand_kinds(*this, own);
  auto operand = [&](std::size_t i, ScalarKind kind) {
    const ScalarExpr& x = a[i];
    if (is_weak_literal(x))
      return ScalarValue::make(kind, x.value().as_double()).to_string();
    return x.to_c(names, kinds);
  };
  // Signed overflow is undefined in OpenCL C, and compilers use that (a * a / 3 may become an
  // unsigned division); the interpreter wraps i32 arithmetic, so the C text computes it on
  // unsigned values and reinterprets the bits: as_int((uint)a * (uint)b).
  bool wraps = (op() == ScalarOp::Add || op() == ScalarOp::Sub || op() == ScalarOp::Mul ||
                op() == ScalarOp::Neg) &&
               result_kind(*this, used, "user function") == ScalarKind::I32;
  auto as_uint = [&](std::size_t i) { return cat("(uint)", operand(i, used[i])); };
  if (wraps && op() == ScalarOp::Neg)
    return cat("as_int(-", as_uint(0), ")");
  if (wraps)
    return cat("as_int(", as_uint(0), " ", op_symbol(op()), " ", as_uint(1), ")");
  // INT_MIN / -1 and INT_MIN % -1 are undefined too (and trap on x86); the interpreter wraps
  // the quotient. A divisor that is a constant other than -1 cannot meet it.
  bool constant_divisor = (op() == ScalarOp::Div || op() == ScalarOp::Mod) &&
                          a[1].op() == ScalarOp::Const && a[1].value().as_double() != -1;
  if ((op() == ScalarOp::Div || op() == ScalarOp::Mod) && !constant_divisor &&
      result_kind(*this, used, "user function") == ScalarKind::I32)
    return cat("((int)((long)", operand(0, used[0]), " ", op_symbol(op()), " ", operand(1, used[1]),
               "))");
  switch (op()) {
  case ScalarOp::Neg:
  case ScalarOp::Not:
    // The operand is parenthesised: "-" before a negative literal must not become "--".
    return cat("(", op_symbol(op()), "(", operand(0, used[0]), "))");
  case ScalarOp::Cast:
    return cat("((", opencl_name(cast_kind()), ")", operand(0, used[0]), ")");
  case ScalarOp::Select:
    return cat("(", operand(0, used[0]), " ? ", operand(1, used[1]), " : ", operand(2, used[2]),
               ")");
  case ScalarOp::Call: {
    // The interpreter converts every argument to the result kind; so does the C text, so that
    // the right overload is chosen (sqrt of an int is computed in float).
    ScalarKind result = result_kind(*this, used, "user function");
    std::string s = function() + "(";
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::string x = operand(i, result);
      if (!is_weak_literal(a[i]) && own[i] != result)
        x = cat("((", opencl_name(result), ")", x, ")");
      s += (i ? ", " : "") + x;
    }
    return s + ")";
  }
  default:
    break;
  }
  return cat("(", operand(0, used[0]), " ", op_symbol(op()), " ", operand(1, used[1]), ")");
}

} // namespace tessera
