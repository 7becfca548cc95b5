#include "dsl/UserFun.h"

namespace tessera {

void detail::rethrow_in_user_fun(const Error& e, const std::string& name,
                                 const std::source_location& loc) {
  rethrow_located(Error(cat("UserFun '", name, "': ", e.what())), loc);
}

Fun detail::make_user_fun_value(std::string name, int arity, std::vector<ScalarKind> signature,
                                ScalarExpr body, std::source_location loc,
                                std::vector<std::string> param_names) {
  auto def = std::make_shared<UserFunDef>();
  def->name = std::move(name);
  def->arity = arity;
  def->signature = std::move(signature);
  def->body = std::move(body);
  def->param_names = std::move(param_names);
  try {
    return Fun::of(make_user_fun(def), loc);
  } catch (const Error& e) {
    rethrow_located(e, loc);
  }
}

Fun id_fun(std::source_location loc) {
  auto id = [](auto x) { return x; };
  return user_fun("id", id, loc);
}
Fun add_fun(std::source_location loc) {
  auto add = [](auto x, auto y) { return x + y; };
  return user_fun("add", add, loc);
}
Fun mult_fun(std::source_location loc) {
  auto mult = [](auto x, auto y) { return x * y; };
  return user_fun("mult", mult, loc);
}

} // namespace tessera
