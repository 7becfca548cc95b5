#include "dsl/UserFun.h"

namespace tessera {

Fun detail::make_user_fun_value(std::string name, int arity, std::vector<ScalarKind> signature,
                                ScalarExpr body) {
  auto def = std::make_shared<UserFunDef>();
  def->name = std::move(name);
  def->arity = arity;
  def->signature = std::move(signature);
  def->body = std::move(body);
  return Fun::of(make_user_fun(def));
}

Fun id_fun() { return user_fun("id", [](auto x) { return x; }); }
Fun add_fun() { return user_fun("add", [](auto x, auto y) { return x + y; }); }
Fun mult_fun() { return user_fun("mult", [](auto x, auto y) { return x * y; }); }

} // namespace tessera
