// Numeric interval bounds by interval arithmetic. Variable ranges are followed to numbers
// (i in [0, N-1] with N in [1, +inf) gives i in [0, +inf)). Ends that would overflow int64
// become unbounded, which is always sound.
#include <algorithm>

#include "core/arith/ArithNode.h"

namespace tessera {

using namespace arith;

namespace {

// Extended integers: values beyond +-kInf mean infinite.
using Ext = __int128;
constexpr Ext kInf = Ext(1) << 100;

thread_local int var_depth = 0; // guards ranges that refer back to their own variable

struct ExtInterval {
  Ext lo, hi;
};

Ext clamp(Ext x) {
  return x >= kInf ? kInf : (x <= -kInf ? -kInf : x);
}
bool infinite(Ext x) {
  return x >= kInf || x <= -kInf;
}

Interval narrow(const ExtInterval& e) {
  auto fits = [](Ext x) { return x >= Ext(INT64_MIN) && x <= Ext(INT64_MAX); };
  Interval r;
  if (fits(e.lo))
    r.lo = static_cast<int64_t>(e.lo);
  if (fits(e.hi))
    r.hi = static_cast<int64_t>(e.hi);
  return r;
}

Ext mul(Ext x, Ext y) {
  if (x == 0 || y == 0)
    return 0;
  if (infinite(x) || infinite(y))
    return ((x > 0) == (y > 0)) ? kInf : -kInf;
  return clamp(x * y);
}

// floor(a / b) for b > 0 (b may be +inf).
Ext div_pos(Ext a, Ext b) {
  if (infinite(a))
    return a > 0 ? kInf : -kInf;
  if (b >= kInf)
    return a >= 0 ? 0 : -1;
  Ext q = a / b;
  if (a % b != 0 && a < 0)
    --q;
  return q;
}

// a / b for b in [blo, bhi] with blo > 0: floor(a/b) grows with a, and moves toward 0 (a >= 0)
// or toward -1 (a < 0) as b grows.
ExtInterval div_positive(ExtInterval a, ExtInterval b) {
  Ext lo = a.lo >= 0 ? div_pos(a.lo, b.hi) : div_pos(a.lo, b.lo);
  Ext hi = a.hi >= 0 ? div_pos(a.hi, b.lo) : div_pos(a.hi, b.hi);
  return {lo, hi};
}

ExtInterval bounds(const ArithExpr& e);

ExtInterval var_bounds(const ArithExpr& v) {
  ExtInterval r{-kInf, kInf};
  if (var_depth > 16)
    return r;
  ++var_depth;
  if (auto lo = v.lo())
    r.lo = bounds(*lo).lo;
  if (auto hi = v.hi())
    r.hi = bounds(*hi).hi;
  --var_depth;
  return r;
}

ExtInterval bounds(const ArithExpr& e) {
  const auto& ops = e.operands();
  switch (e.kind()) {
  case ArithKind::Cst:
    return {e.value(), e.value()};
  case ArithKind::Var:
    return var_bounds(e);
  case ArithKind::Add: {
    ExtInterval r{0, 0};
    for (const ArithExpr& op : ops) {
      ExtInterval b = bounds(op);
      r = {clamp(r.lo + b.lo), clamp(r.hi + b.hi)};
    }
    return r;
  }
  case ArithKind::Mul: {
    ExtInterval r{1, 1};
    for (const ArithExpr& op : ops) {
      ExtInterval b = bounds(op);
      Ext c[4] = {mul(r.lo, b.lo), mul(r.lo, b.hi), mul(r.hi, b.lo), mul(r.hi, b.hi)};
      r = {*std::min_element(c, c + 4), *std::max_element(c, c + 4)};
    }
    return r;
  }
  case ArithKind::Div: {
    ExtInterval a = bounds(ops[0]), b = bounds(ops[1]);
    if (b.lo > 0)
      return div_positive(a, b);
    if (b.hi < 0)
      return div_positive({-a.hi, -a.lo}, {-b.hi, -b.lo}); // a/b == (-a)/(-b)
    return {-kInf, kInf};
  }
  case ArithKind::Mod: {
    ExtInterval a = bounds(ops[0]), b = bounds(ops[1]);
    if (b.lo > 0) { // result in [0, b-1], and at most a when a >= 0
      Ext hi = infinite(b.hi) ? kInf : b.hi - 1;
      if (a.lo >= 0)
        hi = std::min(hi, a.hi);
      return {0, hi};
    }
    if (b.hi < 0) { // result in [b+1, 0], and at least a when a <= 0
      Ext lo = infinite(b.lo) ? -kInf : b.lo + 1;
      if (a.hi <= 0)
        lo = std::max(lo, a.lo);
      return {lo, 0};
    }
    return {-kInf, kInf};
  }
  case ArithKind::Min: {
    ExtInterval a = bounds(ops[0]), b = bounds(ops[1]);
    return {std::min(a.lo, b.lo), std::min(a.hi, b.hi)};
  }
  case ArithKind::Max: {
    ExtInterval a = bounds(ops[0]), b = bounds(ops[1]);
    return {std::max(a.lo, b.lo), std::max(a.hi, b.hi)};
  }
  case ArithKind::Lt:
  case ArithKind::Le:
  case ArithKind::Eq:
  case ArithKind::And:
    return {0, 1};
  case ArithKind::Select: {
    ExtInterval c = bounds(ops[0]), a = bounds(ops[1]), b = bounds(ops[2]);
    if (c.lo > 0 || c.hi < 0)
      return a;
    if (c.lo == 0 && c.hi == 0)
      return b;
    return {std::min(a.lo, b.lo), std::max(a.hi, b.hi)};
  }
  }
  return {-kInf, kInf};
}

} // namespace

Interval bounds_of(const ArithExpr& e) {
  return narrow(bounds(e));
}

} // namespace tessera
