// +, - and *: constant folding, then the polynomial normal form (flattening, like terms
// collected, products distributed over sums, operands in canonical order).
#include "core/arith/ArithNode.h"

namespace tessera {

using namespace arith;

ArithExpr operator+(const ArithExpr& a, const ArithExpr& b) {
  auto ca = a.as_constant(), cb = b.as_constant();
  if (ca && cb)
    return checked_add(*ca, *cb);
  if (cb == 0)
    return a;
  if (ca == 0)
    return b;
  Poly p = to_poly(a);
  add_poly(p, to_poly(b), 1);
  return from_poly(std::move(p));
}

ArithExpr operator-(const ArithExpr& a, const ArithExpr& b) {
  auto ca = a.as_constant(), cb = b.as_constant();
  if (ca && cb)
    return checked_add(*ca, checked_neg(*cb));
  if (cb == 0)
    return a;
  Poly p = to_poly(a);
  add_poly(p, to_poly(b), -1);
  return from_poly(std::move(p));
}

ArithExpr operator-(const ArithExpr& a) {
  return ArithExpr(0) - a;
}

ArithExpr operator*(const ArithExpr& a, const ArithExpr& b) {
  auto ca = a.as_constant(), cb = b.as_constant();
  if (ca && cb)
    return checked_mul(*ca, *cb);
  if (ca == 0 || cb == 0)
    return 0;
  if (ca == 1)
    return b;
  if (cb == 1)
    return a;
  return from_poly(multiply(to_poly(a), to_poly(b)));
}

} // namespace tessera
