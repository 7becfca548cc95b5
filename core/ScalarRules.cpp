#include "core/ScalarRules.h"

#include "core/Error.h"

namespace tessera::scalar_rules {

namespace {

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

} // namespace

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

namespace {

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

} // namespace

// The kinds at which the operands of `e` are used, given their own kinds: weak literals adopt
// the kind of the other operands (of a binary operator, of the two branches of a select, of
// the other arguments of a math function).
std::vector<ScalarKind> operand_kinds(const ScalarExpr& e, std::vector<ScalarKind> k) {
  const auto& a = e.args();
  switch (e.op()) {
  case ScalarOp::Param:
  case ScalarOp::Const:
  case ScalarOp::Neg:
  case ScalarOp::Not:
  case ScalarOp::Cast:
    return k;
  case ScalarOp::Select:
    k[1] = weak_kind(a[1], k[1], k[2]);
    k[2] = weak_kind(a[2], k[2], k[1]);
    return k;
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
    return k;
  }
  default: { // binary operators
    ScalarKind x = k[0], y = k[1];
    k[0] = weak_kind(a[0], x, y);
    k[1] = weak_kind(a[1], y, x);
    return k;
  }
  }
}

// The result kind of `e` from the kinds its operands are used at (see operand_kinds); checks
// the operand kinds of '%'.
ScalarKind result_kind(const ScalarExpr& e, const std::vector<ScalarKind>& k,
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

} // namespace tessera::scalar_rules
