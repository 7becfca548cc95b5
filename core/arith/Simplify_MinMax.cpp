// min / max: constant folding, min(x, x) -> x, elimination when the ranges order the operands
// (min(a, b) -> a when a <= b is provable), common terms pulled out
// (min(a + t, b + t) -> min(a, b) + t), absorption min(a, min(a, b)) -> min(a, b), and
// canonical operand order (both are commutative).
#include "core/arith/ArithNode.h"

namespace tessera {

using namespace arith;

namespace {

ArithExpr min_or_max(ArithKind kind, ArithExpr a, ArithExpr b) {
  bool is_min = kind == ArithKind::Min;
  auto ca = a.as_constant(), cb = b.as_constant();
  if (ca && cb)
    return is_min ? std::min(*ca, *cb) : std::max(*ca, *cb);
  if (a.same_as(b))
    return a;
  // min(a + t, b + t) -> min(a, b) + t for the terms t common to both
  Poly pa = to_poly(a), pb = to_poly(b), common;
  for (const auto& [m, c] : pa)
    if (auto it = pb.find(m); it != pb.end() && it->second == c)
      add_term(common, m, c);
  if (!common.empty()) {
    ArithExpr t = from_poly(std::move(common));
    return min_or_max(kind, a - t, b - t) + t;
  }
  if (prove_le(a, b) == Truth::Yes)
    return is_min ? a : b;
  if (prove_le(b, a) == Truth::Yes)
    return is_min ? b : a;
  // min(a, min(a, c)) -> min(a, c)
  auto absorbs = [&](const ArithExpr& outer, const ArithExpr& inner) {
    return inner.kind() == kind &&
           (inner.operands()[0].same_as(outer) || inner.operands()[1].same_as(outer));
  };
  if (absorbs(a, b))
    return b;
  if (absorbs(b, a))
    return a;
  if (b.less_than(a))
    std::swap(a, b);
  return ArithBuilder::raw(kind, {a, b});
}

} // namespace

ArithExpr min(const ArithExpr& a, const ArithExpr& b) {
  return min_or_max(ArithKind::Min, a, b);
}
ArithExpr max(const ArithExpr& a, const ArithExpr& b) {
  return min_or_max(ArithKind::Max, a, b);
}

} // namespace tessera
