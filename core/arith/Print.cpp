// Readable, deterministic text with minimal parentheses: "N - 2", "(i / 4) * 4 + j",
// "min(i, N - 1)", "(i < N) ? a : b". Negative coefficients print as subtraction, constant
// factors print last ("x * 4"), and operands of *, /, % and && that are not atoms are
// parenthesised even where C precedence would not need it (integer / is not associative).
#include <algorithm>
#include <string>

#include "core/arith/ArithNode.h"

namespace tessera {

namespace {

enum Prec { kSelect, kAnd, kCmp, kAdd, kMul, kAtom };

int64_t coefficient(const ArithExpr& term) {
  if (term.kind() == ArithKind::Cst)
    return term.value();
  if (term.kind() == ArithKind::Mul)
    if (auto c = term.operands()[0].as_constant())
      return *c;
  return 1;
}

Prec prec(const ArithExpr& e) {
  switch (e.kind()) {
  case ArithKind::Cst:
    return e.value() < 0 ? kAdd : kAtom;
  case ArithKind::Var:
  case ArithKind::Min:
  case ArithKind::Max:
    return kAtom;
  case ArithKind::Add:
    return kAdd;
  case ArithKind::Mul:
    return coefficient(e) < 0 ? kAdd : kMul;
  case ArithKind::Div:
  case ArithKind::Mod:
    return kMul;
  case ArithKind::Lt:
  case ArithKind::Le:
  case ArithKind::Eq:
    return kCmp;
  case ArithKind::And:
    return kAnd;
  case ArithKind::Select:
    return kSelect;
  }
  return kAtom;
}

void print(const ArithExpr& e, std::string& out);

void print_wrapped(const ArithExpr& e, bool parens, std::string& out) {
  if (parens)
    out += '(';
  print(e, out);
  if (parens)
    out += ')';
}

// A term of a sum or a product, printed as |coefficient| * atoms when `magnitude` is set.
void print_term(const ArithExpr& t, bool magnitude, std::string& out) {
  int64_t c = coefficient(t);
  if (t.kind() == ArithKind::Cst) {
    std::string s = std::to_string(c);
    if (magnitude && c < 0)
      s.erase(0, 1);
    out += s;
    return;
  }
  if (t.kind() != ArithKind::Mul)
    return print(t, out);
  if (c < 0 && !magnitude)
    out += '-';
  bool first = true;
  for (const ArithExpr& f : t.operands()) {
    if (f.is_constant())
      continue;
    if (!first)
      out += " * ";
    first = false;
    print_wrapped(f, prec(f) < kAtom, out);
  }
  if (c != 1 && c != -1) {
    std::string mag = std::to_string(c);
    if (c < 0)
      mag.erase(0, 1);
    out += " * " + mag;
  }
}

void print_sum(const ArithExpr& e, std::string& out) {
  std::vector<ArithExpr> terms = e.operands();
  // Start with a positive term when there is one: "N - i", not "-i + N".
  if (coefficient(terms[0]) < 0) {
    auto pos = std::find_if(terms.begin(), terms.end(), [](const ArithExpr& t) {
      return !t.is_constant() && coefficient(t) > 0;
    });
    if (pos != terms.end())
      std::rotate(terms.begin(), pos, pos + 1);
  }
  for (std::size_t i = 0; i < terms.size(); ++i) {
    bool negative = coefficient(terms[i]) < 0;
    if (i > 0)
      out += negative ? " - " : " + ";
    print_term(terms[i], i > 0, out);
  }
}

void print_binary(const ArithExpr& e, const char* op, Prec min_prec, std::string& out) {
  const auto& ops = e.operands();
  print_wrapped(ops[0], prec(ops[0]) < min_prec, out);
  out += op;
  print_wrapped(ops[1], prec(ops[1]) < min_prec, out);
}

void print_call(const ArithExpr& e, const char* name, std::string& out) {
  out += name;
  out += '(';
  print(e.operands()[0], out);
  out += ", ";
  print(e.operands()[1], out);
  out += ')';
}

void print(const ArithExpr& e, std::string& out) {
  switch (e.kind()) {
  case ArithKind::Cst:
    out += std::to_string(e.value());
    return;
  case ArithKind::Var:
    out += e.name();
    return;
  case ArithKind::Add:
    return print_sum(e, out);
  case ArithKind::Mul:
    return print_term(e, false, out);
  case ArithKind::Div:
    return print_binary(e, " / ", kAtom, out);
  case ArithKind::Mod:
    return print_binary(e, " % ", kAtom, out);
  case ArithKind::Min:
    return print_call(e, "min", out);
  case ArithKind::Max:
    return print_call(e, "max", out);
  case ArithKind::Lt:
    return print_binary(e, " < ", kAdd, out);
  case ArithKind::Le:
    return print_binary(e, " <= ", kAdd, out);
  case ArithKind::Eq:
    return print_binary(e, " == ", kAdd, out);
  case ArithKind::And:
    return print_binary(e, " && ", kAtom, out);
  case ArithKind::Select: {
    const auto& ops = e.operands();
    print_wrapped(ops[0], prec(ops[0]) < kAtom, out);
    out += " ? ";
    print_wrapped(ops[1], prec(ops[1]) <= kCmp, out);
    out += " : ";
    print_wrapped(ops[2], prec(ops[2]) <= kCmp, out);
    return;
  }
  }
}

} // namespace

std::string ArithExpr::to_string() const {
  std::string out;
  print(*this, out);
  return out;
}

} // namespace tessera
