// The C++ front end: typed values and functions that build IR as the user writes C++.
//
//   Val  a value expression with its type, e.g. a program input or `x | slide(3, 1)`.
//   Fun  something that can be applied to values: a primitive (`slide(3, 1)`), a C++ lambda
//        over Vals, a user function, or a composition `f >> g` (data-flow order: f first).
//
// Applying a Fun type-checks the application immediately, so a mistake is reported at the
// line that made it, with that line's source location.
#pragma once

#include <functional>
#include <initializer_list>
#include <memory>
#include <source_location>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "core/Expr.h"
#include "core/Type.h"

namespace tessera {

class Error;
class Fun;
class Val;

namespace detail {
// The scalar expression an arithmetic value stands for (dsl/ValArith.h).
struct ScalarTerm;
// Rethrows `e` with the user's source line appended (" [at <file>:<line>]"), unless the message
// already carries a location (an error inside a nested function is located once, innermost).
[[noreturn]] void rethrow_located(const Error& e, const std::source_location& loc);
} // namespace detail

class Val {
public:
  Val(Expr expr, Type type) : expr_(std::move(expr)), type_(std::move(type)) {}
  // A value built by arithmetic (`a + b`, dsl/ValArith.h): one anonymous user function of the
  // values it reads, applied to them; `term` records that expression so that further
  // arithmetic extends the same function instead of nesting calls.
  Val(Expr expr, Type type, std::shared_ptr<const detail::ScalarTerm> term)
      : expr_(std::move(expr)), type_(std::move(type)), term_(std::move(term)) {}
  // Scalar literals.
  Val(float v);
  Val(double v);
  Val(int v);

  const Expr& expr() const { return expr_; }
  const Type& type() const { return type_; }

  // Element i of an array (At) and component i of a tuple (Get).
  Val at(ArithExpr i, std::source_location loc = std::source_location::current()) const;
  Val get(int i, std::source_location loc = std::source_location::current()) const;
  // Length of an array value.
  ArithExpr length() const;

  // The user function of an arithmetic value under the name `name` (for generated code and
  // printing; by default such a function is called "expr"). Error for other values.
  Val named(std::string name, std::source_location loc = std::source_location::current()) const;
  const std::shared_ptr<const detail::ScalarTerm>& term() const { return term_; }

private:
  Expr expr_;
  Type type_;
  std::shared_ptr<const detail::ScalarTerm> term_;
};

class Fun {
public:
  // Builds the function node for arguments of the given types.
  using Builder = std::function<Expr(const std::vector<Type>&)>;

  Fun(Builder builder, std::string name, std::source_location loc);
  // A function node that needs no type information to build (Split, UserFun, ...).
  static Fun of(Expr function, std::source_location loc = std::source_location::current());

  // C++ lambdas taking one to four Vals and returning a Val.
  template <class F>
  requires(std::is_invocable_r_v<Val, F, Val> || std::is_invocable_r_v<Val, F, Val, Val> ||
           std::is_invocable_r_v<Val, F, Val, Val, Val> ||
           std::is_invocable_r_v<Val, F, Val, Val, Val, Val>)
      Fun(F f, std::source_location loc = std::source_location::current())
      : Fun(lambda_builder(std::move(f)), "lambda", loc) {
    lambda_arities_ = arities_of<F>();
  }

  // A C++ lambda taking any number of Vals as one vector.
  template <class F>
  requires std::is_invocable_r_v < Val, F, const std::vector<Val>
  & > Fun(F f, std::source_location loc = std::source_location::current())
      : Fun([f](const std::vector<Type>& inputs) { return make_lambda_node(inputs, f); }, "lambda",
            loc) {}

  Expr build(const std::vector<Type>& inputs) const;
  // The same for a primitive `user` (e.g. "Map") that calls this function with arguments of the
  // given types: a C++ lambda that cannot take that many arguments is reported with its name.
  Expr build(const std::vector<Type>& inputs, const std::string& user) const;
  Val apply(const std::vector<Val>& args) const;
  template <class... Args>
  requires(std::is_convertible_v<Args, Val>&&...) Val operator()(const Args&... args) const {
    return apply({Val(args)...});
  }

  const std::string& name() const { return name_; }
  const std::source_location& location() const { return loc_; }

private:
  Builder builder_;
  std::string name_;
  std::source_location loc_;
  std::vector<std::size_t> lambda_arities_; // a C++ lambda: the argument counts it takes

  template <class F> static std::vector<std::size_t> arities_of() {
    std::vector<std::size_t> arities;
    if constexpr (std::is_invocable_r_v<Val, F, Val>)
      arities.push_back(1);
    if constexpr (std::is_invocable_r_v<Val, F, Val, Val>)
      arities.push_back(2);
    if constexpr (std::is_invocable_r_v<Val, F, Val, Val, Val>)
      arities.push_back(3);
    if constexpr (std::is_invocable_r_v<Val, F, Val, Val, Val, Val>)
      arities.push_back(4);
    return arities;
  }
  // Throws when this is a C++ lambda that cannot take `count` arguments.
  void check_lambda_arity(std::size_t count, const std::string& user) const;

  // Instantiates a C++ lambda with fresh parameters of the given types.
  static Expr make_lambda_node(const std::vector<Type>& inputs,
                               const std::function<Val(const std::vector<Val>&)>& body);

  template <class F> static Builder lambda_builder(F f) {
    return [f](const std::vector<Type>& inputs) {
      return make_lambda_node(inputs, [f, n = inputs.size()](const std::vector<Val>& v) -> Val {
        if constexpr (std::is_invocable_r_v<Val, F, Val>) {
          if (n == 1)
            return f(v[0]);
        }
        if constexpr (std::is_invocable_r_v<Val, F, Val, Val>) {
          if (n == 2)
            return f(v[0], v[1]);
        }
        if constexpr (std::is_invocable_r_v<Val, F, Val, Val, Val>) {
          if (n == 3)
            return f(v[0], v[1], v[2]);
        }
        if constexpr (std::is_invocable_r_v<Val, F, Val, Val, Val, Val>) {
          if (n == 4)
            return f(v[0], v[1], v[2], v[3]);
        }
        return wrong_arity(n);
      });
    };
  }
  [[noreturn]] static Val wrong_arity(std::size_t n);
};

// Data-flow application and composition: `x | f | g` is g(f(x)); `f >> g` is x => g(f(x)).
inline Val operator|(const Val& x, const Fun& f) {
  return f(x);
}
Fun operator>>(const Fun& f, const Fun& g);

// A program input with a declared type, and a program over inputs.
Val input(std::string name, Type type);
Expr program(const std::vector<Val>& inputs, const Val& result);

// A size variable for symbolic lengths: `auto N = size_var("N");`.
inline ArithExpr size(std::string name) {
  return ArithExpr::size_var(std::move(name));
}

} // namespace tessera
