// User functions from generic C++ lambdas over symbolic scalars:
//
//   auto add  = user_fun("add", [](auto x, auto y) { return x + y; });
//   auto mult = user_fun("mult", hana::tuple_t<float, float>, [](auto x, auto w) { return x * w;
//   });
//
// The lambda is called once with symbolic parameters (Sym); the operations it performs build the
// scalar IR. Its arity is found at compile time with Boost.Hana; an optional typed signature
// (a hana::tuple_t of C++ types) fixes the parameter types, otherwise the function is typed at
// each use. Plain C++ numbers in the lambda become literals of the other operand's type.
#pragma once

#include <boost/hana.hpp>
#include <cstdint>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/Error.h"
#include "core/Scalar.h"
#include "dsl/Val.h"
#include "dsl/ValArith.h"

namespace tessera {

namespace hana = boost::hana;

// A symbolic scalar inside a user function.
class Sym {
public:
  explicit Sym(ScalarExpr e) : e_(std::move(e)) {}
  template <class T>
  requires std::is_arithmetic_v<T> Sym(T v) : e_(literal(v)) {}
  const ScalarExpr& expr() const { return e_; }

private:
  template <class T> static ScalarExpr literal(T v) { return detail::cpp_number(v); }
  ScalarExpr e_;
};

#define TESSERA_SYM_BINARY(OP, KIND)                                                               \
  inline Sym operator OP(const Sym& a, const Sym& b) {                                             \
    return Sym(ScalarExpr::binary(ScalarOp::KIND, a.expr(), b.expr()));                            \
  }
TESSERA_SYM_BINARY(+, Add)
TESSERA_SYM_BINARY(-, Sub)
TESSERA_SYM_BINARY(*, Mul)
TESSERA_SYM_BINARY(/, Div)
TESSERA_SYM_BINARY(%, Mod)
TESSERA_SYM_BINARY(<, Lt)
TESSERA_SYM_BINARY(<=, Le)
TESSERA_SYM_BINARY(>, Gt)
TESSERA_SYM_BINARY(>=, Ge)
TESSERA_SYM_BINARY(==, Eq)
TESSERA_SYM_BINARY(!=, Ne)
TESSERA_SYM_BINARY(&&, And)
TESSERA_SYM_BINARY(||, Or)
#undef TESSERA_SYM_BINARY

inline Sym operator-(const Sym& a) {
  return Sym(ScalarExpr::unary(ScalarOp::Neg, a.expr()));
}
inline Sym operator!(const Sym& a) {
  return Sym(ScalarExpr::unary(ScalarOp::Not, a.expr()));
}
inline Sym select(const Sym& c, const Sym& a, const Sym& b) {
  return Sym(ScalarExpr::select(c.expr(), a.expr(), b.expr()));
}
inline Sym cast(ScalarKind to, const Sym& a) {
  return Sym(ScalarExpr::cast(to, a.expr()));
}

#define TESSERA_SYM_MATH1(NAME)                                                                    \
  inline Sym NAME(const Sym& a) {                                                                  \
    return Sym(ScalarExpr::call(#NAME, {a.expr()}));                                               \
  }
#define TESSERA_SYM_MATH2(NAME)                                                                    \
  inline Sym NAME(const Sym& a, const Sym& b) {                                                    \
    return Sym(ScalarExpr::call(#NAME, {a.expr(), b.expr()}));                                     \
  }
TESSERA_SYM_MATH1(sqrt)
TESSERA_SYM_MATH1(exp)
TESSERA_SYM_MATH1(log)
TESSERA_SYM_MATH1(fabs)
TESSERA_SYM_MATH1(floor)
TESSERA_SYM_MATH1(ceil)
TESSERA_SYM_MATH1(sin)
TESSERA_SYM_MATH1(cos)
TESSERA_SYM_MATH2(fmin)
TESSERA_SYM_MATH2(fmax)
TESSERA_SYM_MATH2(pow)
#undef TESSERA_SYM_MATH1
#undef TESSERA_SYM_MATH2

namespace detail {

constexpr int kMaxUserFunArity = 24;

// Whether f can be called with k Syms.
template <class F, std::size_t... I> constexpr bool invocable_with_syms(std::index_sequence<I...>) {
  return std::is_invocable_v<
      F, std::conditional_t<true, Sym, std::integral_constant<std::size_t, I>>...>;
}
template <class F, int k> constexpr bool invocable_with() {
  return invocable_with_syms<F>(std::make_index_sequence<k>{});
}

// The smallest arity k in 1..24 such that f can be called with k Syms (0 when none).
template <class F> constexpr int smallest_arity() {
  constexpr auto arities = hana::range_c<int, 1, kMaxUserFunArity + 1>;
  constexpr auto found = hana::find_if(
      arities, [](auto k) { return hana::bool_c<invocable_with<F, decltype(k)::value>()>; });
  if constexpr (found == hana::nothing)
    return 0;
  else
    return found.value();
}

// Whether user_fun(name, f) can tell f's arity: it takes k Syms for exactly one k, found among
// 1..24. A variadic lambda ([](auto... x)) takes any number, so its arity must be given.
template <class F> constexpr bool user_fun_arity_known() {
  constexpr int k = smallest_arity<F>();
  if constexpr (k == 0)
    return false;
  else
    return !invocable_with<F, k + 1>();
}

template <class F> constexpr int user_fun_arity() {
  constexpr int k = smallest_arity<F>();
  static_assert(k != 0, "user_fun: the lambda must take 1 to 24 scalar parameters (auto or Sym); "
                        "for more, give the arity: user_fun<N>(name, f), or take the parameters "
                        "as one std::vector<Sym>: user_fun(name, N, [](const std::vector<Sym>& x) "
                        "{ ... })");
  if constexpr (k != 0)
    static_assert(!invocable_with<F, k + 1>(),
                  "user_fun: this lambda takes any number of parameters (a variadic lambda, "
                  "auto... x), so its arity cannot be known: give it, user_fun<3>(name, f)");
  return k;
}

template <class F, std::size_t... I> ScalarExpr call_with_params(F& f, std::index_sequence<I...>) {
  return Sym(f(Sym(ScalarExpr::param(static_cast<int>(I)))...)).expr();
}

// Rethrows an error raised while building the body of user function `name` (an unknown math
// function, say) as "UserFun '<name>': ..." with the user's location.
[[noreturn]] void rethrow_in_user_fun(const Error& e, const std::string& name,
                                      const std::source_location& loc);

// The body of user function `name`: f called with `arity` symbolic parameters.
template <int arity, class F>
ScalarExpr user_fun_body(const std::string& name, F& f, const std::source_location& loc) {
  try {
    return call_with_params(f, std::make_index_sequence<arity>{});
  } catch (const Error& e) {
    rethrow_in_user_fun(e, name, loc);
  }
}

template <class T> constexpr ScalarKind scalar_kind_of() {
  if constexpr (std::is_same_v<T, float>)
    return ScalarKind::F32;
  else if constexpr (std::is_same_v<T, double>)
    return ScalarKind::F64;
  else if constexpr (std::is_same_v<T, std::int32_t>)
    return ScalarKind::I32;
  else if constexpr (std::is_same_v<T, std::uint8_t>)
    return ScalarKind::U8;
  else if constexpr (std::is_same_v<T, bool>)
    return ScalarKind::Bool;
  else
    static_assert(sizeof(T) == 0,
                  "user_fun signature types must be float, double, int32_t, uint8_t or bool");
}

// The Fun of a user function; `loc` is the user's line, which errors of applying it carry.
Fun make_user_fun_value(std::string name, int arity, std::vector<ScalarKind> signature,
                        ScalarExpr body, std::source_location loc = std::source_location::current(),
                        std::vector<std::string> param_names = {});

} // namespace detail

// A polymorphic user function: parameter types come from each use.
template <class F>
Fun user_fun(std::string name, F f, std::source_location loc = std::source_location::current()) {
  constexpr int arity = detail::user_fun_arity<F>();
  ScalarExpr body = detail::user_fun_body<arity>(name, f, loc);
  return detail::make_user_fun_value(std::move(name), arity, {}, std::move(body), loc);
}

// The same with names for the parameters, which generated kernels use (a C++ lambda's
// parameter names cannot be seen): user_fun("blur", {"north", "west", "centre"}, ...).
template <class F>
Fun user_fun(std::string name, std::vector<std::string> param_names, F f,
             std::source_location loc = std::source_location::current()) {
  constexpr int arity = detail::user_fun_arity<F>();
  ScalarExpr body = detail::user_fun_body<arity>(name, f, loc);
  return detail::make_user_fun_value(std::move(name), arity, {}, std::move(body), loc,
                                     std::move(param_names));
}

// A user function of `arity` parameters given explicitly: a variadic lambda
// (`user_fun<27>("sum", [](auto... x) { return (x + ...); })`) or one of more than 24.
template <int arity, class F>
Fun user_fun(std::string name, F f, std::source_location loc = std::source_location::current()) {
  static_assert(arity >= 1, "user_fun<N>: the arity must be at least 1");
  static_assert(detail::invocable_with<F, arity>(),
                "user_fun<N>: the lambda cannot be called with N scalar parameters");
  ScalarExpr body = detail::user_fun_body<arity>(name, f, loc);
  return detail::make_user_fun_value(std::move(name), arity, {}, std::move(body), loc);
}

// A user function of any number of parameters known at run time, given to the lambda as one
// vector: user_fun("sum", 729, [](const std::vector<Sym>& x) { Sym s = x[0]; ...; return s; }).
template <class F>
requires std::is_invocable_v < F, const std::vector<Sym>
& > Fun user_fun(std::string name, int arity, F f,
                 std::source_location loc = std::source_location::current()) {
  if (arity < 1)
    detail::rethrow_located(
        Error(cat("UserFun '", name, "': the arity must be at least 1, got ", arity)), loc);
  std::vector<Sym> params;
  for (int i = 0; i < arity; ++i)
    params.emplace_back(ScalarExpr::param(i));
  ScalarExpr body;
  try {
    body = Sym(f(params)).expr();
  } catch (const Error& e) {
    detail::rethrow_in_user_fun(e, name, loc);
  }
  return detail::make_user_fun_value(std::move(name), arity, {}, std::move(body), loc);
}

// A user function with a typed signature, e.g. hana::tuple_t<float, float> (a hana::tuple of
// hana::type<T>, whose ::type is T).
template <class... Types, class F>
Fun user_fun(std::string name, hana::tuple<Types...>, F f,
             std::source_location loc = std::source_location::current()) {
  constexpr int arity = sizeof...(Types);
  static_assert(std::is_invocable_v<F, std::conditional_t<true, Sym, Types>...>,
                "user_fun: the lambda's arity does not match its signature");
  ScalarExpr body = detail::user_fun_body<arity>(name, f, loc);
  return detail::make_user_fun_value(std::move(name), arity,
                                     {detail::scalar_kind_of<typename Types::type>()...},
                                     std::move(body), loc);
}

// Frequently used user functions; `loc` is where they are used (for error locations).
Fun id_fun(std::source_location loc = std::source_location::current());   // x => x
Fun add_fun(std::source_location loc = std::source_location::current());  // (x, y) => x + y
Fun mult_fun(std::source_location loc = std::source_location::current()); // (x, y) => x * y

} // namespace tessera
