// Floor division and modulo. With floor semantics, for any integers q, r and b != 0:
//   (q*b + r) / b == q + r / b        (q*b + r) % b == r % b
// and, for a constant c > 0 and g dividing c and every non-constant coefficient of a,
// writing a == g*y + rr with 0 <= rr < g:
//   a / c == y / (c/g)                a % c == g*(y % (c/g)) + rr
#include "core/Error.h"
#include "core/arith/ArithNode.h"

namespace tessera {

using namespace arith;

namespace {

// a == q*b + r, where q*b collects the terms of a that are multiples of the single-term b.
struct Split {
  Poly q, r;
};

std::optional<Split> split_multiples(const Poly& a, const Poly& b) {
  if (b.size() != 1)
    return std::nullopt;
  const auto& [mb, cb] = *b.begin();
  Split s;
  for (const auto& [m, c] : a) {
    auto rest = remove_atoms(m, mb);
    bool divides = cb == 1 || cb == -1 || c % cb == 0;
    if (rest && divides)
      add_term(s.q, *rest, cb == -1 ? checked_neg(c) : c / cb);
    else
      add_term(s.r, m, c);
  }
  return s;
}

// t when a == t*b for a constant t.
std::optional<int64_t> constant_ratio(const Poly& a, const Poly& b) {
  if (a.size() != b.size() || b.empty())
    return std::nullopt;
  const auto& [m0, c0] = *b.begin();
  auto first = a.find(m0);
  if (first == a.end() || c0 == -1 || first->second % c0 != 0)
    return std::nullopt;
  int64_t t = first->second / c0;
  for (const auto& [m, c] : b) {
    auto it = a.find(m);
    if (it == a.end() || it->second != checked_mul(c, t))
      return std::nullopt;
  }
  return t;
}

// a == g*y + rr with 0 <= rr < g, where g = gcd(c, non-constant coefficients of a) > 1.
struct CommonFactor {
  int64_t g;
  ArithExpr y;
  int64_t rr;
};

std::optional<CommonFactor> common_factor(const Poly& a, int64_t c) {
  int64_t g = c, r0 = 0;
  for (const auto& [m, k] : a) {
    if (m.empty())
      r0 = k;
    else
      g = gcd(g, k);
  }
  if (g <= 1)
    return std::nullopt;
  Poly y;
  for (const auto& [m, k] : a)
    if (!m.empty())
      add_term(y, m, k / g);
  add_term(y, {}, floor_div(r0, g));
  return CommonFactor{g, from_poly(std::move(y)), floor_mod(r0, g)};
}

// 0 <= a < b, proven from the ranges.
bool in_first_period(const ArithExpr& a, const ArithExpr& b) {
  return prove_nonneg(a) == Truth::Yes && prove_lt(a, b) == Truth::Yes;
}

// floor(a / c) when it is the same for every value in a's numeric bounds.
std::optional<int64_t> constant_quotient(const ArithExpr& a, int64_t c) {
  Interval ia = bounds_of(a);
  if (!ia.lo || !ia.hi)
    return std::nullopt;
  int64_t q = floor_div(*ia.lo, c);
  if (q != floor_div(*ia.hi, c))
    return std::nullopt;
  return q;
}

} // namespace

ArithExpr operator/(const ArithExpr& a, const ArithExpr& b) {
  auto ca = a.as_constant(), cb = b.as_constant();
  if (cb == 0)
    user_error(cat("division by zero: ", a.to_string(), " / 0"));
  if (ca && cb)
    return floor_div(*ca, *cb);
  if (cb == 1)
    return a;
  if (cb == -1)
    return -a;
  if (ca == 0)
    return 0;
  Poly pa = to_poly(a), pb = to_poly(b);
  // (q*b + r) / b -> q + r / b
  if (auto s = split_multiples(pa, pb); s && !s->q.empty())
    return from_poly(std::move(s->q)) + from_poly(std::move(s->r)) / b;
  if (auto t = constant_ratio(pa, pb))
    return *t;
  if (cb && *cb > 0) {
    // (x / c1) / c2 -> x / (c1*c2)
    if (a.kind() == ArithKind::Div)
      if (auto c1 = a.operands()[1].as_constant(); c1 && *c1 > 0)
        return a.operands()[0] / checked_mul(*c1, *cb);
    if (auto f = common_factor(pa, *cb))
      return f->y / (*cb / f->g);
  }
  if (cb)
    if (auto q = constant_quotient(a, *cb))
      return *q;
  if (in_first_period(a, b))
    return 0;
  return ArithBuilder::raw(ArithKind::Div, {a, b});
}

ArithExpr operator%(const ArithExpr& a, const ArithExpr& b) {
  auto ca = a.as_constant(), cb = b.as_constant();
  if (cb == 0)
    user_error(cat("modulo by zero: ", a.to_string(), " % 0"));
  if (ca && cb)
    return floor_mod(*ca, *cb);
  if (cb == 1 || cb == -1 || ca == 0)
    return 0;
  Poly pa = to_poly(a), pb = to_poly(b);
  // (q*b + r) % b -> r % b
  if (auto s = split_multiples(pa, pb); s && !s->q.empty())
    return from_poly(std::move(s->r)) % b;
  if (constant_ratio(pa, pb))
    return 0;
  // (x % m) % b -> x % b when b divides m (including m == b)
  if (a.kind() == ArithKind::Mod && prove_divisible(a.operands()[1], b) == Truth::Yes)
    return a.operands()[0] % b;
  if (cb && *cb > 0)
    if (auto f = common_factor(pa, *cb))
      return f->g * (f->y % (*cb / f->g)) + f->rr;
  if (cb)
    if (auto q = constant_quotient(a, *cb))
      return a - checked_mul(*q, *cb);
  if (in_first_period(a, b))
    return a;
  return ArithBuilder::raw(ArithKind::Mod, {a, b});
}

} // namespace tessera
