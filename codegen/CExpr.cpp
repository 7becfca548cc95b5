#include "codegen/CExpr.h"
#include "codegen/Image.h"

#include "core/Error.h"

namespace tessera::codegen {

namespace {
bool is_atomic(const ArithExpr& e) {
  switch (e.kind()) {
  case ArithKind::Cst:
    return e.value() >= 0;
  case ArithKind::Var:
  case ArithKind::Min:
  case ArithKind::Max:
  case ArithKind::Lt:
  case ArithKind::Le:
  case ArithKind::Eq:
  case ArithKind::And:
  case ArithKind::Select:
    return true; // printed with their own parentheses
  default:
    return false;
  }
}
bool non_negative(const ArithExpr& e) {
  return prove_nonneg(e) == Truth::Yes;
}
bool positive(const ArithExpr& e) {
  return prove_lt(0, e) == Truth::Yes;
}
} // namespace

std::string CPrinter::operand(const ArithExpr& e) {
  std::string s = arith(e);
  return is_atomic(e) ? s : "(" + s + ")";
}

std::string CPrinter::arith(const ArithExpr& e) {
  const auto& ops = e.operands();
  switch (e.kind()) {
  case ArithKind::Cst:
    return std::to_string(e.value());
  case ArithKind::Var:
    return e.name();
  case ArithKind::Add: {
    std::string s;
    for (const auto& term : ops) {
      // Print `a + -2*b` as `a - 2*b` and `a + -3` as `a - 3`.
      ArithExpr negated = -term;
      bool negative =
          (term.kind() == ArithKind::Cst && term.value() < 0) ||
          (term.kind() == ArithKind::Mul && term.operands().front().kind() == ArithKind::Cst &&
           term.operands().front().value() < 0);
      if (s.empty())
        s = negative ? "-" + operand(negated) : arith(term);
      else
        s += negative
                 ? " - " + (negated.kind() == ArithKind::Add ? operand(negated) : arith(negated))
                 : " + " + arith(term);
    }
    return s;
  }
  case ArithKind::Mul: {
    std::string s;
    for (const auto& f : ops)
      s += (s.empty() ? "" : " * ") + operand(f);
    return s;
  }
  case ArithKind::Div:
  case ArithKind::Mod: {
    bool div = e.kind() == ArithKind::Div;
    if (non_negative(ops[0]) && positive(ops[1]))
      return operand(ops[0]) + (div ? " / " : " % ") + operand(ops[1]);
    ++guards_;
    (div ? floor_div_ : floor_mod_) = true;
    return cat(div ? "floor_div(" : "floor_mod(", arith(ops[0]), ", ", arith(ops[1]), ")");
  }
  case ArithKind::Min:
  case ArithKind::Max:
    ++guards_;
    return cat(e.kind() == ArithKind::Min ? "min(" : "max(", arith(ops[0]), ", ", arith(ops[1]),
               ")");
  // Comparisons and selects are always parenthesised: they bind more loosely than arithmetic.
  case ArithKind::Lt:
    return cat("(", operand(ops[0]), " < ", operand(ops[1]), ")");
  case ArithKind::Le:
    return cat("(", operand(ops[0]), " <= ", operand(ops[1]), ")");
  case ArithKind::Eq:
    return cat("(", operand(ops[0]), " == ", operand(ops[1]), ")");
  case ArithKind::And:
    return cat("(", arith(ops[0]), " && ", arith(ops[1]), ")");
  case ArithKind::Select:
    ++guards_;
    return cat("(", arith(ops[0]), " ? ", operand(ops[1]), " : ", operand(ops[2]), ")");
  }
  internal_error("unknown ArithExpr kind");
}

std::string CPrinter::access(const Access& a) {
  switch (a.kind) {
  case Access::MemoryRead:
    if (a.memory->is_scalar_var)
      return a.memory->name;
    return a.memory->name + "[" + arith(a.index) + "]";
  case Access::Text:
    return a.text;
  case Access::ImageRead: {
    std::vector<std::string> coordinates;
    for (const auto& c : a.args)
      coordinates.push_back(arith(c.index));
    return image_read_text(a.memory->name, coordinates);
  }
  case Access::Integer:
    return arith(a.index);
  case Access::Call: {
    note_call(a.text);
    std::string s = a.text + "(";
    for (std::size_t i = 0; i < a.args.size(); ++i)
      s += (i ? ", " : "") + access(a.args[i]);
    return s + ")";
  }
  case Access::Signed: {
    // A sign of -1 is exact negation for every kind (floats: x * -1 == -x, bit for bit).
    if (auto c = a.index.as_constant())
      return *c == 1 ? access(a.args.at(0)) : "(-" + access(a.args.at(0)) + ")";
    return cat("(", operand(a.index), " * ", access(a.args.at(0)), ")");
  }
  case Access::Guarded: {
    if (!a.outside)
      internal_error("a guarded write read as a value");
    if (auto c = a.condition.as_constant())
      return access(*c ? *a.inside : *a.outside);
    ++guards_;
    return cat("((", arith(a.condition), ") ? ", access(*a.inside), " : ", access(*a.outside), ")");
  }
  }
  internal_error("unknown access kind");
}

std::string floor_helpers(bool div, bool mod) {
  std::string s;
  if (div)
    s += "// Floor division: rounds towards minus infinity, unlike C's '/'.\n"
         "inline int floor_div(int a, int b) { int q = a / b; return (a % b != 0 && ((a < 0) != "
         "(b < 0))) ? q - 1 : q; }\n";
  if (mod)
    s += "// Floor modulo: the result has the sign of b, unlike C's '%'.\n"
         "inline int floor_mod(int a, int b) { int r = a % b; return (r != 0 && ((r < 0) != (b < "
         "0))) ? r + b : r; }\n";
  return s;
}

} // namespace tessera::codegen
