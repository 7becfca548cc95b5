#include "codegen/ScalarC.h"

#include "core/Error.h"
#include "core/ScalarTyping.h"

namespace tessera::codegen {

using namespace scalar;

std::string scalar_c_type(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F32:
    return "float";
  case ScalarKind::F64:
    return "double";
  case ScalarKind::I32:
    return "int";
  case ScalarKind::U8:
    return "uchar";
  case ScalarKind::Bool:
    return "bool";
  }
  internal_error("unknown scalar kind");
}

namespace {

// C compilers limit the nesting of parentheses (clang: 256), which a sum of a few hundred terms,
// (((a + b) + c) + ...), exceeds. Beyond this many terms, a chain of + and - (or * and /) is
// written without the parentheses of its left operands: C groups `a + b - c` as `(a + b) - c`,
// so the evaluation order, and the result, are the same. Shorter chains keep their parentheses.
constexpr int kMaxChain = 64;

bool additive(ScalarOp op) {
  return op == ScalarOp::Add || op == ScalarOp::Sub;
}
bool multiplicative(ScalarOp op) {
  return op == ScalarOp::Mul || op == ScalarOp::Div;
}
bool same_group(ScalarOp a, ScalarOp b) {
  return (additive(a) && additive(b)) || (multiplicative(a) && multiplicative(b));
}

// One operation of a left chain with the kinds its operands are used at (a weak literal takes
// the kind it adopted).
struct ChainLink {
  const ScalarExpr* op;
  std::vector<ScalarKind> used;
};

// The kinds e's operands are used at, given the kind of its left operand.
std::vector<ScalarKind> used_kinds_after(const ScalarExpr& e, ScalarKind left,
                                         const std::vector<ScalarKind>& kinds) {
  std::vector<ScalarKind> own{left};
  for (std::size_t i = 1; i < e.args().size(); ++i)
    own.push_back(e.args()[i].infer(kinds, "user function"));
  use_operand_kinds(e, own);
  return own;
}

// The floating-point binary operations down the left operands of e that share e's group, each
// with its operands' kinds. The kinds are found bottom-up, once per operation: inferring each
// operation's kind afresh made a sum of n terms cost n^2 (0.3 s per kernel of a 729-point box).
std::vector<ChainLink> left_chain(const ScalarExpr& e, const std::vector<ScalarKind>& kinds) {
  std::vector<const ScalarExpr*> down;
  for (const ScalarExpr* x = &e;
       (additive(x->op()) || multiplicative(x->op())) && same_group(x->op(), e.op());
       x = &x->args()[0])
    down.push_back(x);
  std::vector<ChainLink> links(down.size());
  std::vector<ScalarKind> result(down.size());
  for (std::size_t i = down.size(); i-- > 0;) {
    const ScalarExpr& x = *down[i];
    ScalarKind left =
        i + 1 < down.size() ? result[i + 1] : x.args()[0].infer(kinds, "user function");
    links[i] = {down[i], used_kinds_after(x, left, kinds)};
    result[i] = result_kind(x, links[i].used, "user function");
  }
  std::size_t floating = 0;
  while (floating < links.size() && is_floating(result[floating]))
    ++floating;
  links.resize(floating);
  return links;
}

// An operand as C text, a weak literal printed in the kind it is used at (so that float code
// stays float).
std::string operand_c(const ScalarExpr& x, ScalarKind kind, const std::vector<std::string>& names,
                      const std::vector<ScalarKind>& kinds) {
  if (is_weak_literal(x))
    return ScalarValue::make(kind, x.value().as_double()).to_string();
  return scalar_c(x, names, kinds);
}

} // namespace

std::string scalar_c(const ScalarExpr& e, const std::vector<std::string>& names,
                     const std::vector<ScalarKind>& kinds) {
  const auto& a = e.args();
  if (additive(e.op()) || multiplicative(e.op())) {
    std::vector<ChainLink> chain = left_chain(e, kinds);
    if (chain.size() > static_cast<std::size_t>(kMaxChain)) {
      // chain.back() is the innermost operation: its left operand starts the text; then every
      // operation and its right operand.
      std::string text = operand_c(chain.back().op->args()[0], chain.back().used[0], names, kinds);
      for (auto it = chain.rbegin(); it != chain.rend(); ++it)
        text += cat(" ", op_symbol(it->op->op()), " ",
                    operand_c(it->op->args()[1], it->used[1], names, kinds));
      return cat("(", text, ")");
    }
  }
  switch (e.op()) {
  case ScalarOp::Param:
    return names.at(e.param_index());
  case ScalarOp::Const:
    return e.value().to_string();
  default:
    break;
  }
  std::vector<ScalarKind> own;
  for (const auto& x : a)
    own.push_back(x.infer(kinds, "user function"));
  std::vector<ScalarKind> used = own;
  use_operand_kinds(e, used);
  auto operand = [&](std::size_t i, ScalarKind kind) {
    return operand_c(a[i], kind, names, kinds);
  };
  // Signed overflow is undefined in OpenCL C, and compilers use that (a * a / 3 may become an
  // unsigned division); the interpreter wraps i32 arithmetic, so the C text computes it on
  // unsigned values and reinterprets the bits: as_int((uint)a * (uint)b).
  const bool wraps = (e.op() == ScalarOp::Add || e.op() == ScalarOp::Sub ||
                      e.op() == ScalarOp::Mul || e.op() == ScalarOp::Neg) &&
                     result_kind(e, used, "user function") == ScalarKind::I32;
  auto as_uint = [&](std::size_t i) { return cat("(uint)", operand(i, used[i])); };
  if (wraps && e.op() == ScalarOp::Neg)
    return cat("as_int(-", as_uint(0), ")");
  if (wraps)
    return cat("as_int(", as_uint(0), " ", op_symbol(e.op()), " ", as_uint(1), ")");
  // INT_MIN / -1 and INT_MIN % -1 are undefined too (and trap on x86); the interpreter wraps
  // the quotient. A divisor that is a constant other than -1 cannot meet it.
  const bool division = e.op() == ScalarOp::Div || e.op() == ScalarOp::Mod;
  const bool constant_divisor =
      division && a[1].op() == ScalarOp::Const && a[1].value().as_double() != -1;
  if (division && !constant_divisor && result_kind(e, used, "user function") == ScalarKind::I32)
    return cat("((int)((long)", operand(0, used[0]), " ", op_symbol(e.op()), " ",
               operand(1, used[1]), "))");
  switch (e.op()) {
  case ScalarOp::Neg:
  case ScalarOp::Not:
    // The operand is parenthesised: "-" before a negative literal must not become "--".
    return cat("(", op_symbol(e.op()), "(", operand(0, used[0]), "))");
  case ScalarOp::Cast:
    return cat("((", scalar_c_type(e.cast_kind()), ")", operand(0, used[0]), ")");
  case ScalarOp::Select: {
    // An i32 selection's condition through tessera_cond (codegen/Portability.h: NVIDIA).
    const bool integer = result_kind(e, used, "user function") == ScalarKind::I32;
    const std::string condition = operand(0, used[0]);
    return cat("(", integer ? cat("tessera_cond(", condition, ")") : condition, " ? ",
               operand(1, used[1]), " : ", operand(2, used[2]), ")");
  }
  case ScalarOp::Call: {
    // The interpreter converts every argument to the result kind; so does the C text, so that
    // the right overload is chosen (sqrt of an int is computed in float).
    ScalarKind result = result_kind(e, used, "user function");
    std::string s = e.function() + "(";
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::string x = operand(i, result);
      if (!is_weak_literal(a[i]) && own[i] != result)
        x = cat("((", scalar_c_type(result), ")", x, ")");
      s += (i ? ", " : "") + x;
    }
    return s + ")";
  }
  default:
    break;
  }
  return cat("(", operand(0, used[0]), " ", op_symbol(e.op()), " ", operand(1, used[1]), ")");
}

} // namespace tessera::codegen
