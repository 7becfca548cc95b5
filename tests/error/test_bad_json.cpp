// Loading expressions from bad JSON: every problem is a tessera::Error that says what is wrong,
// never a crash or another exception type (test_bad_json_mutations.cpp: a seeded mutation loop
// over valid files).
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <typeinfo>
#include <vector>

#include "dsl/Dsl.h"
#include "tests/error/ErrorCheck.h"
#include "tests/error/ExprJson.h"

using namespace tessera;
using namespace tessera::testing;
using nlohmann::json;

namespace {

// A fresh temporary directory, removed at the end of the scope.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "tessera-bad-json-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

} // namespace

TEST_CASE("text that is not JSON") {
  CHECK_ERROR(load_expr("hello"), "not valid JSON");
  CHECK_ERROR(load_expr(""), "not valid JSON");
  std::string text = valid_program().dump();
  CHECK_ERROR(load_expr(text.substr(0, text.size() / 2)), "not valid JSON");
  CHECK_ERROR(load_expr(text + "}"), "not valid JSON");
  CHECK_THROWS_WITH_AS(load_expr("{\"format\": "), doctest::Contains("not valid JSON"),
                       tessera::Error);
}

TEST_CASE("JSON that is not an expression document") {
  for (const char* text : {"[1, 2, 3]", "42", "null", "\"tessera-expr\"", "true", "{}"})
    CHECK_ERROR(load_expr(text), "not a tessera expression", "\"format\"");
  json j = valid_program();
  j.erase("format");
  CHECK_ERROR(load(j), "not a tessera expression", "tessera-expr");
  j["format"] = "tessera-kernel";
  CHECK_ERROR(load(j), "not a tessera expression");
  CHECK_ERROR(expr_from_json(json::array({j})), "not a tessera expression");
}

TEST_CASE("wrong or missing version, missing expr") {
  json j = valid_program();
  j["version"] = 3;
  CHECK_ERROR(load(j), "version 3", "versions 1 and 2");
  j["version"] = 2; // (version 1 files still load: below)
  CHECK_NOTHROW(load(j));
  j["version"] = -1;
  CHECK_ERROR(load(j), "version -1");
  j.erase("version");
  CHECK_ERROR(load(j), "version");
  j = valid_program();
  j.erase("expr");
  CHECK_ERROR(load(j), "missing \"expr\"");
  j["expr"] = 5;
  CHECK_ERROR(load(j), "/expr", "\"kind\"");
}

// "format" and "version" of another JSON type are reported as such (no nlohmann::json
// exception escapes expr_from_json): "not a tessera expression: \"format\" must be the string
// \"tessera-expr\", got 5", "unsupported tessera expression version \"1\": this build reads
// versions 1 and 2".
TEST_CASE("format and version of the wrong JSON type") {
  json j = valid_program();
  j["format"] = 5;
  CHECK_ERROR(load(j), "format", "got 5");
  CHECK_ERROR(expr_from_json(j), "format", "got 5");
  j = valid_program();
  j["version"] = "1";
  CHECK_ERROR(load(j), "version");
  j["version"] = json::array();
  CHECK_ERROR(load(j), "version");
  j["version"] = 1.0;
  CHECK_ERROR(load(j), "version 1.0");
  j["version"] = 1;
  CHECK_NOTHROW(load(j));
}

TEST_CASE("unknown node kinds") {
  CHECK_ERROR(load(document({{"kind", "Frobnicate"}})), "unknown kind 'Frobnicate'", "/expr");
  CHECK_ERROR(load(program_of({{"kind", "Stencil"}})), "unknown kind 'Stencil'",
              "/expr/children/1/children/0");
  CHECK_ERROR(load(document({{"kind", 3}})), "\"kind\"");
  CHECK_ERROR(load(document({{"children", json::array()}})), "\"kind\"");
  CHECK_ERROR(load(document(json::array())), "\"kind\"");
  // Values where functions belong and the other way round.
  CHECK_ERROR(load(program_of(param_ref(0))), "applied");
  CHECK_ERROR(load(program_of(
                  {{"kind", "Map"}, {"map", "Map"}, {"dim", 0}, {"children", arr(param_ref(0))}})),
              "Map", "function");
}

TEST_CASE("nodes missing children or sizes") {
  CHECK_ERROR(load(program_of({{"kind", "Slide"}, {"sizes", arr(cst(3))}})),
              "Slide needs 2 sizes (size, step), got 1");
  CHECK_ERROR(load(program_of({{"kind", "Slide"}})), "Slide needs 2 sizes", "got 0");
  CHECK_ERROR(load(program_of({{"kind", "Split"}})), "Split needs 1 size (chunk), got 0");
  CHECK_ERROR(load(program_of({{"kind", "Pad"}, {"boundary", "clamp"}, {"sizes", arr(cst(1))}})),
              "Pad needs 2 sizes (left, right), got 1");
  CHECK_ERROR(load(program_of({{"kind", "Map"}, {"map", "Map"}, {"dim", 0}})), "Map needs",
              "1 child(ren)", "got 0");
  CHECK_ERROR(
      load(program_of({{"kind", "Reduce"}, {"reduce", "Reduce"}, {"children", json::array()}})),
      "Reduce needs", "2 child(ren)");
  CHECK_ERROR(load(program_of({{"kind", "Iterate"}, {"sizes", arr(cst(2))}})), "Iterate needs",
              "1 child(ren)");
  CHECK_ERROR(load(program_of({{"kind", "Join"}, {"sizes", arr(cst(2))}})), "Join takes no sizes",
              "got 1");
  CHECK_ERROR(load(document({{"kind", "Call"}})), "Call needs a function");
  CHECK_ERROR(load(document({{"kind", "Lambda"}, {"children", arr(param_ref(0))}})),
              "Lambda needs parameters and a body");
  CHECK_ERROR(load(document({{"kind", "Call"}, {"children", 3}})), "\"children\" must be an array");
  CHECK_ERROR(load(document({{"kind", "Literal"}})), "missing \"value\"");
  CHECK_ERROR(load(document({{"kind", "Literal"}, {"value", 1.5}})), "invalid scalar value");
}

TEST_CASE("unknown map kinds, reduce kinds, boundaries and address spaces") {
  json id = id_fun_json();
  CHECK_ERROR(
      load(program_of({{"kind", "Map"}, {"map", "MapFoo"}, {"dim", 0}, {"children", arr(id)}})),
      "unknown map kind 'MapFoo'", "/expr/children/1/children/0");
  CHECK_ERROR(load(program_of({{"kind", "Map"}, {"dim", 0}, {"children", arr(id)}})),
              "missing \"map\"");
  CHECK_ERROR(load(program_of({{"kind", "Map"}, {"map", "MapGlb"}, {"children", arr(id)}})),
              "missing \"dim\"");
  CHECK_ERROR(
      load(program_of({{"kind", "Map"}, {"map", "MapGlb"}, {"dim", 7}, {"children", arr(id)}})),
      "MapGlb", "dimension", "7");
  CHECK_ERROR(load(program_of({{"kind", "Map"}, {"map", 3}, {"dim", 0}, {"children", arr(id)}})),
              "invalid expression JSON");
  CHECK_ERROR(load(program_of({{"kind", "ToMem"}, {"space", "Constant"}, {"children", arr(id)}})),
              "unknown address space 'Constant'");
  json lit = {{"kind", "Literal"}, {"value", {{"type", "f32"}, {"value", 0}}}};
  CHECK_ERROR(
      load(program_of({{"kind", "Reduce"}, {"reduce", "Fold"}, {"children", arr(id, lit)}})),
      "unknown reduce kind 'Fold'");

  json pad = {{"kind", "Pad"}, {"boundary", "reflect"}, {"sizes", {cst(1), cst(1)}}};
  CHECK_ERROR(load(program_of(pad)), "unknown boundary 'reflect'", "antisymmetric",
              "/expr/children/1/children/0");
  pad.erase("boundary");
  CHECK_ERROR(load(program_of(pad)), "missing \"boundary\"");
  pad["boundary"] = "constant";
  CHECK_ERROR(load(program_of(pad)), "missing \"value\"");
  pad["value"] = {{"type", "f16"}, {"value", 0}};
  CHECK_ERROR(load(program_of(pad)), "unknown scalar type 'f16'");
  pad["value"] = "zero";
  CHECK_ERROR(load(program_of(pad)), "invalid scalar value");
  pad["sizes"] = arr(cst(-1), cst(1));
  pad["boundary"] = "clamp";
  CHECK_ERROR(load(program_of(pad)), "Pad", "left padding", "-1");
}

TEST_CASE("bad parameter references") {
  json j = program_of(slide_node(3, 1));
  j["expr"]["children"][1]["children"][1]["param"] = "zero";
  CHECK_ERROR(load(j), "\"param\" must be an integer");
  j["expr"]["children"][1]["children"][1].erase("param");
  CHECK_ERROR(load(j), "missing \"param\"");
  // A lambda parameter that is not a Param.
  json k = document({{"kind", "Lambda"}, {"children", {slide_node(3, 1), param_ref(0)}}});
  CHECK_ERROR(load(k), "Param");
  // Referencing an unknown id is an error when loading (it used to load as a parameter without
  // a type, which only type checking reported).
  json u = program_of(slide_node(3, 1));
  u["expr"]["children"][1]["children"][1] = param_ref(5);
  CHECK_ERROR(load(u), "/expr/children/1/children/1", "parameter 5", "used before it is defined");
}

// Parameter ids are numbered by order of appearance, so a new id must equal the number of ids
// seen so far ("invalid expression JSON at /expr/children/1/children/1: parameter 5 is used
// before it is defined"), and a lambda's parameter is in scope in its body only.
TEST_CASE("a reference to an undefined parameter id is a load error") {
  json u = program_of(slide_node(3, 1));
  u["expr"]["children"][1]["children"][1] = param_ref(5);
  CHECK_ERROR(load(u), "param", "5");
  CHECK_ERROR(load(u), "/expr/children/1/children/1", "parameter 5 is used before it is defined");
  // A definition out of order: the first parameter numbered 1.
  json w = program_of(slide_node(3, 1));
  w["expr"]["children"][0]["param"] = 1;
  CHECK_ERROR(load(w), "/expr/children/0", "parameter 1", "before it is defined");
  // Used outside its lambda: the outer body refers to id 1, the parameter of an inner lambda.
  json inner = {
      {"kind", "Lambda"},
      {"children", {param_def(1, "y", f32_type(3)), call(slide_node(3, 1), param_ref(1))}}};
  json v = document(
      {{"kind", "Lambda"},
       {"children",
        {param_def(0, "x", f32_type(8)), call(slide_node(3, 1), call(inner, param_ref(1)))}}});
  CHECK_ERROR(load(v), "param", "1");
  CHECK_ERROR(load(v), "parameter 1 is used outside the lambda that defines it",
              "/expr/children/1/children/1/children/1");
  // Inside the inner lambda the reference is fine.
  json ok =
      document({{"kind", "Lambda"},
                {"children",
                 {param_def(0, "x", f32_type(8)),
                  call({{"kind", "Lambda"},
                        {"children",
                         {param_def(1, "y", f32_type(8)), call(slide_node(3, 1), param_ref(1))}}},
                       param_ref(0))}}});
  CHECK_NOTHROW(load(ok));
  CHECK(infer_type(load(ok)) == array_of(f32(), {6, 3}));
}

TEST_CASE("bad arithmetic expressions in sizes") {
  auto with_sizes = [](json sizes) {
    return program_of({{"kind", "Slide"}, {"sizes", std::move(sizes)}});
  };
  CHECK_ERROR(load(with_sizes(arr(json{{"cst", "three"}}, cst(1)))), "arithmetic JSON", "'cst'");
  CHECK_ERROR(load(with_sizes(arr(json{{"cst", 2.5}}, cst(1)))), "arithmetic JSON", "'cst'");
  CHECK_ERROR(load(with_sizes(arr(json::object(), cst(1)))), "arithmetic JSON", "\"cst\"");
  CHECK_ERROR(load(with_sizes(arr(3, cst(1)))), "arithmetic JSON", "object");
  CHECK_ERROR(load(with_sizes(arr(json{{"var", 7}}, cst(1)))), "arithmetic JSON", "'var'");
  CHECK_ERROR(load(with_sizes(arr(json{{"op", "pow"}, {"args", arr(cst(2), cst(3))}}, cst(1)))),
              "arithmetic JSON", "unknown operator 'pow'");
  CHECK_ERROR(load(with_sizes(arr(json{{"op", "div"}, {"args", arr(cst(2))}}, cst(1)))),
              "arithmetic JSON", "'div'", "2 arguments");
  CHECK_ERROR(load(with_sizes(arr(json{{"op", "add"}, {"args", json::array()}}, cst(1)))),
              "arithmetic JSON", "'add'");
  CHECK_ERROR(load(with_sizes(arr(json{{"op", "div"}, {"args", arr(cst(2), cst(0))}}, cst(1)))),
              "division by zero");
  CHECK_ERROR(load(with_sizes(arr(json{{"op", "add"}}, cst(1)))), "arithmetic JSON");
  CHECK_ERROR(load(with_sizes(3)), "invalid expression JSON");
  CHECK_ERROR(load(with_sizes(arr(cst(0), cst(1)))), "Slide", "window size", "0");
  // Get and Iterate need constants.
  CHECK_ERROR(load(program_of({{"kind", "Get"}, {"sizes", arr(json{{"var", "N"}})}})),
              "Get needs a constant index");
  json id = id_fun_json();
  json map_id = {{"kind", "Map"}, {"map", "Map"}, {"dim", 0}, {"children", arr(id)}};
  CHECK_ERROR(
      load(program_of(
          {{"kind", "Iterate"}, {"sizes", arr(json{{"var", "K"}})}, {"children", arr(map_id)}})),
      "Iterate", "constant");
}

TEST_CASE("bad types") {
  auto with_type = [](json type) {
    return document(
        {{"kind", "Lambda"},
         {"children", {param_def(0, "x", std::move(type)), call(slide_node(3, 1), param_ref(0))}}});
  };
  CHECK_ERROR(load(with_type({{"scalar", "f16"}})), "unknown scalar type 'f16'", "f32");
  CHECK_ERROR(load(with_type({{"array", {{"scalar", "f32"}}}})), "invalid type in JSON");
  CHECK_ERROR(load(with_type(42)), "invalid type in JSON");
  CHECK_ERROR(load(with_type({{"scalar", 3}})), "invalid type in JSON");
  CHECK_ERROR(load(with_type({{"tuple", json::array()}})), "tuple type", "at least one");
  CHECK_ERROR(load(with_type({{"array", {{"scalar", "f32"}}}, {"length", cst(-3)}})),
              "array length", "negative", "-3");
  CHECK_ERROR(load(with_type({{"array", {{"scalar", "f32"}}}, {"length", "eight"}})),
              "arithmetic JSON");
  CHECK_ERROR(load(with_type({{"array", {{"vector", "f32"}}}, {"length", cst(8)}})),
              "invalid type in JSON");
  CHECK_ERROR(type_from_json(json{{"array", {{"scalar", "f32"}}}}), "invalid type in JSON");
}

TEST_CASE("bad user functions") {
  auto with_fun = [](json f) {
    json map = {{"kind", "Map"}, {"map", "Map"}, {"dim", 0}, {"children", arr(std::move(f))}};
    return program_of(map);
  };
  json f = {{"kind", "UserFun"},
            {"name", "sq"},
            {"arity", 1},
            {"body", {{"op", "mul"}, {"args", arr(scalar_param(0), scalar_param(0))}}}};
  CHECK_NOTHROW(load(with_fun(f)));
  json g = f;
  g["body"]["op"] = "pow";
  CHECK_ERROR(load(with_fun(g)), "invalid scalar expression", "unknown op 'pow'");
  g = f;
  g["body"] = {{"op", "call"}, {"function", "tanh"}, {"args", arr(scalar_param(0))}};
  CHECK_ERROR(load(with_fun(g)), "unknown math function 'tanh'");
  g = f;
  g["body"]["args"][1]["index"] = 1;
  CHECK_ERROR(load(with_fun(g)), "UserFun 'sq'", "parameter 1", "arity 1");
  g = f;
  g["body"]["args"][1]["index"] = -1;
  CHECK_ERROR(load(with_fun(g)), "invalid scalar expression", "index");
  g = f;
  g["body"]["args"] = json::array();
  CHECK_ERROR(load(with_fun(g)), "invalid scalar expression", "'mul'", "2 argument");
  g = f;
  g["signature"] = arr("f32", "f32");
  CHECK_ERROR(load(with_fun(g)), "UserFun 'sq'", "signature");
  g["signature"] = arr("half");
  CHECK_ERROR(load(with_fun(g)), "unknown scalar type 'half'");
  g = f;
  g.erase("body");
  CHECK_ERROR(load(with_fun(g)), "missing \"body\"");
  g = f;
  g["name"] = "";
  CHECK_ERROR(load(with_fun(g)), "UserFun", "name");
  g = f;
  g["arity"] = "one";
  CHECK_ERROR(load(with_fun(g)), "invalid expression JSON");
}

// Errors found while reading sizes, types, scalar values and user function bodies say where in
// the document they are, once: "invalid expression JSON at <where>: <message>".
TEST_CASE("errors inside sizes, types and user function bodies say where they are") {
  CHECK_ERROR(load(program_of({{"kind", "Slide"}, {"sizes", arr(json{{"cst", "x"}}, cst(1))}})),
              "/expr/children/1/children/0");
  json typed = document(
      {{"kind", "Lambda"}, {"children", {param_def(0, "x", {{"scalar", "f16"}}), param_ref(0)}}});
  CHECK_ERROR(load(typed), "/expr/children/0");
  json f = {{"kind", "UserFun"}, {"name", "bad"}, {"arity", 1}, {"body", {{"op", "pow"}}}};
  CHECK_ERROR(load(program_of({{"kind", "Map"}, {"map", "Map"}, {"dim", 0}, {"children", arr(f)}})),
              "/expr/children/1/children/0/children/0");
  std::string message = tessera::testing::error_message([&] {
    (void)load(program_of({{"kind", "Map"}, {"map", "Map"}, {"dim", 0}, {"children", arr(f)}}));
  });
  CHECK(message.find("invalid expression JSON at") == message.rfind("invalid expression JSON at"));
  json lit = {{"kind", "Literal"}, {"value", {{"type", "f32"}, {"value", "zero"}}}};
  CHECK_ERROR(
      load(program_of(
          {{"kind", "Reduce"}, {"reduce", "Reduce"}, {"children", arr(id_fun_json(), lit)}})),
      "/expr/children/1/children/0/children/1", "invalid scalar value");
}

TEST_CASE("files that cannot be read") {
  TempDir dir;
  std::string missing = (dir.path / "no-such-file.json").string();
  CHECK_ERROR(load_expr_file(missing), "cannot read expression file", missing);
  CHECK_ERROR(load_expr_file((dir.path / "no-such-dir" / "x.json").string()),
              "cannot read expression file");
  CHECK_THROWS_AS(load_expr_file(dir.path.string()), tessera::Error);
  std::string garbage = (dir.path / "garbage.json").string();
  std::ofstream(garbage) << "not json at all";
  CHECK_ERROR(load_expr_file(garbage), "not valid JSON");
  std::string empty = (dir.path / "empty.json").string();
  std::ofstream(empty) << "";
  CHECK_ERROR(load_expr_file(empty), "not valid JSON");
  std::string wrong = (dir.path / "wrong.json").string();
  std::ofstream(wrong) << "{\"format\": \"tessera-expr\", \"version\": 9}";
  CHECK_ERROR(load_expr_file(wrong), "version 9");
  // Saving into a directory that does not exist.
  CHECK_ERROR(save_expr_file(load(valid_program()), (dir.path / "no-such-dir" / "p.json").string()),
              "cannot write");
}

// Errors from load_expr_file name the file ("in '<path>': ..."), and a directory is reported as
// such rather than as invalid JSON.
TEST_CASE("errors from load_expr_file name the file") {
  TempDir dir;
  CHECK_ERROR(load_expr_file(dir.path.string()), dir.path.string(), "directory");
  std::string garbage = (dir.path / "garbage.json").string();
  std::ofstream(garbage) << "not json at all";
  CHECK_ERROR(load_expr_file(garbage), "not valid JSON", garbage);
  std::string wrong = (dir.path / "wrong.json").string();
  std::ofstream(wrong) << "{\"format\": \"tessera-expr\", \"version\": 9}";
  CHECK_ERROR(load_expr_file(wrong), "version 9", wrong);
}
