// Expression documents built by hand for the bad-JSON suites (test_bad_json*.cpp): the
// pieces of a document, a small valid program, and loading from a JSON value.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "dsl/Dsl.h"

namespace tessera::testing {

using nlohmann::json;

inline json document(json expr) {
  return {{"format", "tessera-expr"}, {"version", 1}, {"expr", std::move(expr)}};
}
inline json cst(int64_t v) {
  return {{"cst", v}};
}
inline json f32_type(int64_t n) {
  return {{"array", {{"scalar", "f32"}}}, {"length", cst(n)}};
}
inline json param_def(int id, const std::string& name, json type) {
  return {{"kind", "Param"}, {"param", id}, {"name", name}, {"type", std::move(type)}};
}
inline json param_ref(int id) {
  return {{"kind", "Param"}, {"param", id}};
}
// A JSON array (spelled out: nlohmann reads some nested braces as objects).
template <class... T> inline json arr(T... items) {
  return json::array({json(std::move(items))...});
}
inline json scalar_param(int i) {
  return {{"op", "param"}, {"index", i}};
}
inline json id_fun_json() {
  return {{"kind", "UserFun"}, {"name", "id"}, {"arity", 1}, {"body", scalar_param(0)}};
}
inline json call(json f, json arg) {
  return {{"kind", "Call"}, {"children", {std::move(f), std::move(arg)}}};
}
inline json slide_node(int64_t size, int64_t step) {
  return {{"kind", "Slide"}, {"sizes", {cst(size), cst(step)}}};
}
// (x : [f32]_8) => f $ x
inline json program_of(json f) {
  return document(
      {{"kind", "Lambda"},
       {"children", {param_def(0, "x", f32_type(8)), call(std::move(f), param_ref(0))}}});
}

inline Expr load(const json& j) {
  return load_expr(j.dump());
}

// A valid program and its JSON text, for targeted corruptions.
inline json valid_program() {
  Val x = input("x", Type::array(f32(), 8));
  Expr p = program({x}, x | pad(1, 1, constant(0.5f)) | slide(3, 1) | map(reduce(add_fun(), 0.0f)));
  return json::parse(save_expr(p));
}

} // namespace tessera::testing
