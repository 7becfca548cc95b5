// Checked int64 arithmetic and floor division: overflow is a tessera::Error, never undefined
// behaviour. floor_div / floor_mod satisfy a == floor_div(a, b) * b + floor_mod(a, b) with
// floor_mod having the sign of b (-7 / 2 == -4, -7 % 2 == 1), unlike C++'s truncation.
#include "core/Error.h"
#include "core/arith/ArithNode.h"

namespace tessera::arith {

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r))
    user_error(cat("arithmetic overflow in ", a, " + ", b));
  return r;
}

int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r))
    user_error(cat("arithmetic overflow in ", a, " * ", b));
  return r;
}

int64_t checked_neg(int64_t a) {
  return checked_mul(a, -1);
}

int64_t floor_div(int64_t a, int64_t b) {
  if (b == 0)
    user_error(cat("division by zero: ", a, " / 0"));
  if (b == -1)
    return checked_neg(a);
  int64_t q = a / b; // truncates toward zero
  if ((a % b != 0) && ((a < 0) != (b < 0)))
    --q;
  return q;
}

int64_t floor_mod(int64_t a, int64_t b) {
  if (b == 0)
    user_error(cat("modulo by zero: ", a, " % 0"));
  if (b == -1 || b == 1)
    return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return r;
}

int64_t gcd(int64_t a, int64_t b) {
  // Works on magnitudes; gcd(0, b) == |b|. Values near INT64_MIN are treated as having gcd 1.
  if (a == INT64_MIN || b == INT64_MIN)
    return 1;
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b != 0) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

} // namespace tessera::arith
