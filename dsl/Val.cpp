#include "dsl/Val.h"

#include <algorithm>

#include "core/Error.h"
#include "primitives/TypeCheck.h"

namespace tessera {

namespace {
const char* const kLocationMarker = " [at ";
} // namespace

// Appends the user's source line to an error raised while applying a Fun, once.
void detail::rethrow_located(const Error& e, const std::source_location& loc) {
  std::string what = e.what();
  if (what.find(kLocationMarker) == std::string::npos)
    what += cat(kLocationMarker, loc.file_name(), ":", loc.line(), "]");
  throw Error(what);
}

using detail::rethrow_located;

Val::Val(float v) : Val(make_literal(ScalarValue::make(ScalarKind::F32, v)), f32()) {}
Val::Val(double v) : Val(make_literal(ScalarValue::make(ScalarKind::F64, v)), f64()) {}
Val::Val(int v) : Val(make_literal(ScalarValue::make(ScalarKind::I32, v)), i32()) {}

Val Val::at(ArithExpr i, std::source_location loc) const {
  return Fun::of(make_at(std::move(i)), loc)(*this);
}

Val Val::get(int i, std::source_location loc) const {
  return Fun::of(make_get(i), loc)(*this);
}

ArithExpr Val::length() const {
  if (!type_.is_array())
    user_error(cat("length() of a non-array value of type ", type_));
  return type_.length();
}

Fun::Fun(Builder builder, std::string name, std::source_location loc)
    : builder_(std::move(builder)), name_(std::move(name)), loc_(loc) {}

Fun Fun::of(Expr function, std::source_location loc) {
  std::string name = kind_name(function->kind);
  return Fun([function](const std::vector<Type>&) { return function; }, name, loc);
}

Expr Fun::build(const std::vector<Type>& inputs) const {
  try {
    return builder_(inputs);
  } catch (const Error& e) {
    rethrow_located(e, loc_);
  }
}

Expr Fun::build(const std::vector<Type>& inputs, const std::string& user) const {
  check_lambda_arity(inputs.size(), user);
  return build(inputs);
}

void Fun::check_lambda_arity(std::size_t count, const std::string& user) const {
  if (lambda_arities_.empty() ||
      std::find(lambda_arities_.begin(), lambda_arities_.end(), count) != lambda_arities_.end())
    return;
  std::string takes;
  for (std::size_t i = 0; i < lambda_arities_.size(); ++i)
    takes += cat(i == 0 ? "" : i + 1 == lambda_arities_.size() ? " or " : ", ", lambda_arities_[i]);
  std::string message =
      user.empty() ? cat("this C++ lambda takes ", takes, " argument(s), got ", count)
                   : cat("the C++ lambda given to ", user, " takes ", takes, " argument(s), but ",
                         user, " calls it with ", count, " argument(s)");
  rethrow_located(Error(message), loc_);
}

Val Fun::apply(const std::vector<Val>& args) const {
  std::vector<Type> types;
  std::vector<Expr> exprs;
  for (const auto& a : args) {
    types.push_back(a.type());
    exprs.push_back(a.expr());
  }
  check_lambda_arity(types.size(), "");
  try {
    Expr f = builder_(types);
    TypeChecker checker;
    Type result = checker.apply(f, types);
    return Val(make_call(f, exprs), result);
  } catch (const Error& e) {
    rethrow_located(e, loc_);
  }
}

Expr Fun::make_lambda_node(const std::vector<Type>& inputs,
                           const std::function<Val(const std::vector<Val>&)>& body) {
  std::vector<Expr> params;
  std::vector<Val> vals;
  for (const auto& t : inputs) {
    // The type is recorded so that expressions built inside the body (a nested Generate, say)
    // can be type-checked on their own before the lambda is applied.
    params.push_back(make_param("", t));
    vals.emplace_back(params.back(), t);
  }
  return make_lambda(params, body(vals).expr());
}

Val Fun::wrong_arity(std::size_t n) {
  user_error(cat("this C++ lambda cannot be called with ", n, " argument(s)"));
}

Fun operator>>(const Fun& f, const Fun& g) {
  return Fun(
      [f, g](const std::vector<Type>& inputs) {
        std::vector<Expr> params;
        std::vector<Val> vals;
        for (const auto& t : inputs) {
          params.push_back(make_param("", t));
          vals.emplace_back(params.back(), t);
        }
        return make_lambda(params, g(f.apply(vals)).expr());
      },
      f.name() + " >> " + g.name(), f.location());
}

Val input(std::string name, Type type) {
  return Val(make_param(std::move(name), type), type);
}

Expr program(const std::vector<Val>& inputs, const Val& result) {
  std::vector<Expr> params;
  for (const auto& v : inputs) {
    if (v.expr()->kind != NodeKind::Param || !v.expr()->declared_type)
      user_error("program(): every input must come from input(name, type)");
    params.push_back(v.expr());
  }
  return make_lambda(params, result.expr());
}

} // namespace tessera
