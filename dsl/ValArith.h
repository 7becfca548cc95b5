// Arithmetic on values, written inline as in the formula:
//
//   map_nd(2, [](Val n) { return 0.25f * (n.at(0).at(1) + n.at(1).at(0) + ...); })
//
// `+ - * / %`, unary minus, comparisons (a bool value), `&& || !`, select(c, a, b) and the math
// functions of user functions (sqrt, exp, log, fabs/abs, floor, ceil, sin, cos, fmin/min,
// fmax/max, pow) apply to scalar values and C++ numbers. They build no new language: the whole
// expression becomes one anonymous user function (named "expr", or as Val::named says) of the
// distinct values it reads, applied to them, so printing, the interpreter, the rewrites and the
// code generator treat it exactly like a user function written with user_fun.
//
// Types are checked as the expression is built (the user's line is in the error): both operands
// of an operator have one type (f32 with f64 is an error: nothing is converted silently), a C++
// number takes the type of the value beside it (an integer number with any value, a fractional
// one only with f32/f64 values), bools only compare and combine with && || !.
//
// Parameters: values read from a neighbourhood (`n.at(i).at(j)` with constant indices on a
// window of odd constant size) come first, in row-major order, named by their offset from the
// centre as the catalog names them (c, im1, jp1_im1, ...); other values follow in the order the
// expression first reads them.
#pragma once

#include <optional>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

#include "core/Scalar.h"
#include "dsl/Val.h"

namespace tessera {

namespace detail {

// A C++ number inside a scalar expression: a "weak" literal that takes the type of the other
// operand (bools stay bool).
ScalarExpr cpp_number(ScalarKind kind, double value);
template <class T> ScalarExpr cpp_number(T v) {
  if constexpr (std::is_same_v<T, bool>)
    return cpp_number(ScalarKind::Bool, v);
  else if constexpr (std::is_floating_point_v<T>)
    return cpp_number(ScalarKind::F64, static_cast<double>(v));
  else
    return cpp_number(ScalarKind::I32, static_cast<double>(v));
}

} // namespace detail

// An operand of value arithmetic: a Val or a C++ number, with the user's line for errors.
class Operand {
public:
  Operand(const Val& v, std::source_location loc = std::source_location::current())
      : val_(v), loc_(loc) {}
  template <class T>
  requires std::is_arithmetic_v<T>
  Operand(T v, std::source_location loc = std::source_location::current())
      : number_(detail::cpp_number(v)), is_number_(true), loc_(loc) {}

  const Val& val() const { return *val_; } // not a number
  bool is_number() const { return is_number_; }
  const ScalarExpr& number() const { return number_; }
  const std::source_location& location() const { return loc_; }

private:
  std::optional<Val> val_;
  ScalarExpr number_;
  bool is_number_ = false;
  std::source_location loc_;
};

Val operator+(const Operand& a, const Operand& b);
Val operator-(const Operand& a, const Operand& b);
Val operator*(const Operand& a, const Operand& b);
Val operator/(const Operand& a, const Operand& b);
Val operator%(const Operand& a, const Operand& b);
Val operator<(const Operand& a, const Operand& b);
Val operator<=(const Operand& a, const Operand& b);
Val operator>(const Operand& a, const Operand& b);
Val operator>=(const Operand& a, const Operand& b);
Val operator==(const Operand& a, const Operand& b);
Val operator!=(const Operand& a, const Operand& b);
Val operator&&(const Operand& a, const Operand& b);
Val operator||(const Operand& a, const Operand& b);
Val operator-(const Operand& a);
Val operator!(const Operand& a);

// c ? a : b for a bool value c.
Val select(const Operand& c, const Operand& a, const Operand& b);

namespace detail {
Val math_call(const std::string& function, const std::vector<Operand>& args);
template <class A, class B>
concept OneIsVal = std::is_same_v<A, Val> || std::is_same_v<B, Val>;
} // namespace detail

// Math functions of floating values (f32 or f64). The binary ones need a value on one side, so
// that min(1, 2) on C++ numbers is never taken for them.
#define TESSERA_VAL_MATH1(NAME, FUNCTION)                                                          \
  inline Val NAME(const Val& a, std::source_location loc = std::source_location::current()) {      \
    return detail::math_call(FUNCTION, {Operand(a, loc)});                                         \
  }
#define TESSERA_VAL_MATH2(NAME, FUNCTION)                                                          \
  template <class A, class B>                                                                      \
  requires detail::OneIsVal<A, B> Val NAME(                                                        \
      const A& a, const B& b, std::source_location loc = std::source_location::current()) {        \
    return detail::math_call(FUNCTION, {Operand(a, loc), Operand(b, loc)});                        \
  }
TESSERA_VAL_MATH1(sqrt, "sqrt")
TESSERA_VAL_MATH1(exp, "exp")
TESSERA_VAL_MATH1(log, "log")
TESSERA_VAL_MATH1(fabs, "fabs")
TESSERA_VAL_MATH1(abs, "fabs")
TESSERA_VAL_MATH1(floor, "floor")
TESSERA_VAL_MATH1(ceil, "ceil")
TESSERA_VAL_MATH1(sin, "sin")
TESSERA_VAL_MATH1(cos, "cos")
TESSERA_VAL_MATH2(fmin, "fmin")
TESSERA_VAL_MATH2(min, "fmin")
TESSERA_VAL_MATH2(fmax, "fmax")
TESSERA_VAL_MATH2(max, "fmax")
TESSERA_VAL_MATH2(pow, "pow")
#undef TESSERA_VAL_MATH1
#undef TESSERA_VAL_MATH2

// The sum of weights[k] * point k over a whole neighbourhood `window` (nested arrays of any
// depth, points in row-major order); zero weights are skipped. One expression, so one user
// function of the points it reads: `map_nd(3, [&](Val n) { return weighted_sum(n, w) / 26; })`.
Val weighted_sum(const Val& window, const std::vector<double>& weights,
                 std::source_location loc = std::source_location::current());

// The same with the weights read from an array value, a program input say (`weights` of type
// [[f32]_3]_3, or [f32]_9: any nesting with one weight per point, row-major): the unrolled sum
// w[0]*p[0] + w[1]*p[1] + ..., one user function of the points and the weights (named
// `weights_c`, `weights_im1`, ... after the input), so the rewrites and the code generator treat
// it as the constant form. Weights and points must have one element type.
Val weighted_sum(const Val& window, const Val& weights,
                 std::source_location loc = std::source_location::current());

// The name of the neighbourhood point at `offset` from the centre, outermost dimension first:
// "c" for the centre, else the moved dimensions (k, j, i from the outside in; d0, d1, ... beyond
// three dimensions) with m for minus and p for plus: "im1" is x[i-1], "jp1_im1" is x[j+1][i-1].
std::string neighbour_name(const std::vector<int>& offset);

} // namespace tessera
