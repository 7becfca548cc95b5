// User functions' parameter names in JSON: saved when given, loaded and checked.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "dsl/Dsl.h"

using namespace tessera;

namespace {

Expr named_program() {
  auto f = user_fun("mix", {"old", "fresh"}, [](auto a, auto b) { return 0.25 * a + 0.75 * b; });
  Val x = input("x", Type::array(f32(), size("N")));
  return program({x}, x | pad(0, 1, clamp) | slide(2, 1) |
                          map([&](Val w) { return f(w.at(0), w.at(1)); }));
}

const UserFunDef* find_user_fun(const Expr& e) {
  if (e->kind == NodeKind::UserFun)
    return e->user_fun.get();
  for (const auto& c : e->children)
    if (const UserFunDef* d = find_user_fun(c))
      return d;
  return nullptr;
}

// The user function's node in a saved program (the only one with "params").
nlohmann::json* user_fun_node(nlohmann::json& j) {
  if (j.is_object() && j.contains("params"))
    return &j;
  if (j.is_structured())
    for (auto& c : j)
      if (auto* found = user_fun_node(c))
        return found;
  return nullptr;
}

} // namespace

TEST_CASE("json names: parameter names round trip and leave older files valid") {
  Expr p = named_program();
  std::string text = save_expr(p);
  auto j = nlohmann::json::parse(text);
  REQUIRE(user_fun_node(j));
  CHECK((*user_fun_node(j))["params"] == nlohmann::json{"old", "fresh"});
  Expr loaded = load_expr(text);
  REQUIRE(find_user_fun(loaded));
  CHECK(find_user_fun(loaded)->param_names == std::vector<std::string>{"old", "fresh"});
  CHECK(print(loaded) == print(p));

  // A file without names (written before names existed) loads with none.
  user_fun_node(j)->erase("params");
  CHECK(find_user_fun(load_expr(j.dump()))->param_names.empty());
}

TEST_CASE("json names: bad parameter names are clear errors") {
  auto load_with = [&](const nlohmann::json& params) {
    auto j = nlohmann::json::parse(save_expr(named_program()));
    (*user_fun_node(j))["params"] = params;
    try {
      load_expr(j.dump());
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  CHECK(load_with({"old"}).find("1 parameter names for 2 parameters") != std::string::npos);
  CHECK(load_with({"old", "a-b"}).find("'a-b' is not an identifier") != std::string::npos);
  CHECK(load_with("old").find("must be an array of parameter names") != std::string::npos);
  CHECK(load_with({"old", 3}).find("must be an array of parameter names") != std::string::npos);
}
