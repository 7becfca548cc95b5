// Comparisons (value 1 or 0), logical and, and select: folded when the prover decides them,
// otherwise put in canonical form.
#include "core/arith/ArithNode.h"

namespace tessera {

using namespace arith;

namespace {

std::optional<ArithExpr> decided(Truth t) {
  if (t == Truth::Yes)
    return ArithExpr(1);
  if (t == Truth::No)
    return ArithExpr(0);
  return std::nullopt;
}

// Canonical sides of a comparison: a ? b  ==  P ? Q  where P - Q == a - b, P holds the terms of
// a - b with positive coefficients and Q the negated others (i < N - 1  ->  i + 1 < N).
std::pair<ArithExpr, ArithExpr> balance(const ArithExpr& a, const ArithExpr& b) {
  Poly d = to_poly(a);
  add_poly(d, to_poly(b), -1);
  Poly pos, neg;
  for (const auto& [m, c] : d) {
    if (c > 0)
      add_term(pos, m, c);
    else
      add_term(neg, m, checked_neg(c));
  }
  return {from_poly(std::move(pos)), from_poly(std::move(neg))};
}

} // namespace

ArithExpr lt(const ArithExpr& a, const ArithExpr& b) {
  if (auto d = decided(prove_lt(a, b)))
    return *d;
  auto [p, q] = balance(a, b);
  return ArithBuilder::raw(ArithKind::Lt, {p, q});
}

ArithExpr le(const ArithExpr& a, const ArithExpr& b) {
  if (auto d = decided(prove_le(a, b)))
    return *d;
  auto [p, q] = balance(a, b);
  return ArithBuilder::raw(ArithKind::Le, {p, q});
}

// Symmetric: sides balanced, then in canonical order.
ArithExpr eq(const ArithExpr& a, const ArithExpr& b) {
  if (auto d = decided(prove_eq(a, b)))
    return *d;
  auto [p, q] = balance(a, b);
  if (q.less_than(p))
    std::swap(p, q);
  return ArithBuilder::raw(ArithKind::Eq, {p, q});
}

// Operands are 0/1 values: and(0, x) -> 0, and(1, x) -> x, and(x, x) -> x.
ArithExpr logical_and(const ArithExpr& a, const ArithExpr& b) {
  auto ca = a.as_constant(), cb = b.as_constant();
  if (ca && cb)
    return (*ca != 0 && *cb != 0) ? 1 : 0;
  if (ca)
    return *ca != 0 ? b : ArithExpr(0);
  if (cb)
    return *cb != 0 ? a : ArithExpr(0);
  if (a.same_as(b))
    return a;
  if (b.less_than(a))
    return ArithBuilder::raw(ArithKind::And, {b, a});
  return ArithBuilder::raw(ArithKind::And, {a, b});
}

ArithExpr select(const ArithExpr& cond, const ArithExpr& if_true, const ArithExpr& if_false) {
  if (auto c = cond.as_constant())
    return *c != 0 ? if_true : if_false;
  if (if_true.same_as(if_false))
    return if_true;
  return ArithBuilder::raw(ArithKind::Select, {cond, if_true, if_false});
}

} // namespace tessera
