// Loading mutated expression documents: a seeded mutation loop over valid files; every mutant
// loads or raises a tessera::Error, never a crash or another exception type.
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

// Bases for the mutation loop: programs that use many node kinds and fields.
std::vector<std::string> mutation_bases() {
  std::vector<std::string> bases;
  bases.push_back(valid_program().dump());

  auto N = size("N");
  Val a = input("a", Type::array(f32(), N));
  Val b = input("b", Type::array(f32(), N));
  auto weigh = user_fun("weigh", [](auto x, auto y) {
    return select(x < y, cast(ScalarKind::F32, x * 2), fmax(y, sqrt(fabs(x))) - 0.5);
  });
  Val zipped = zip({a, b}) | map(Fun([weigh](Val t) { return weigh(t.get(0), t.get(1)); }));
  bases.push_back(
      save_expr(program({a, b}, zipped | pad(2, 2, mirror) | slide(5, 1) |
                                    map_glb(0, to_private(reduce_seq(add_fun(), 0.0f))) | join())));

  Val g = input("g", array_of(f32(), {6, 4}));
  auto parity = user_fun("parity", [](auto i) { return i % 2; });
  Fun step =
      pad(1, 1, wrap) >> slide(3, 1) >> map_seq(reduce_seq_unroll(add_fun(), 0.0f)) >> join();
  bases.push_back(save_expr(
      program({g}, g | split_nd(2, 2) | map_nd(2, join_nd(2) >> at(0)) |
                       map(Fun([step](Val row) { return row | drop(1, 0) | iterate(2, step); })) |
                       transpose() | map(to_local(map(id_fun()))))));
  bases.push_back(save_expr(generate(8, parity).expr()));
  return bases;
}

// All JSON pointers to values inside `j`.
void collect(const json& j, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  out.push_back(at);
  if (j.is_object())
    for (auto it = j.begin(); it != j.end(); ++it)
      collect(it.value(), at / it.key(), out);
  else if (j.is_array())
    for (std::size_t i = 0; i < j.size(); ++i)
      collect(j[i], at / i, out);
}

// One random corruption of `text`, described in `what`. Unless `header_too`, only the "expr"
// part of the document is changed (compact dumps put it first: keys are sorted).
std::string mutate(const std::string& text, std::mt19937& rng, std::string& what, bool header_too) {
  auto pick = [&](std::size_t n) {
    return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng);
  };
  static const std::vector<std::string> keys = {
      "kind",     "children", "sizes", "param",    "type",      "map",    "dim",   "reduce",
      "boundary", "value",    "name",  "arity",    "signature", "body",   "op",    "args",
      "index",    "cst",      "var",   "array",    "length",    "scalar", "tuple", "format",
      "version",  "expr",     "space", "function", "to",        "weak",   "kindx"};
  static const std::vector<json> values = {nullptr,
                                           true,
                                           false,
                                           0,
                                           1,
                                           -1,
                                           2,
                                           7,
                                           2.5,
                                           "",
                                           "x",
                                           "Map",
                                           "MapGlb",
                                           "Slide",
                                           "Pad",
                                           "Call",
                                           "Lambda",
                                           "Param",
                                           "UserFun",
                                           "clamp",
                                           "constant",
                                           "f32",
                                           "f64",
                                           "i32",
                                           "add",
                                           "param",
                                           json::array(),
                                           json::object(),
                                           arr(cst(1)),
                                           cst(-1),
                                           json{{"var", "N"}},
                                           json{{"kind", "Join"}},
                                           json{{"scalar", "f32"}}};
  std::size_t text_end = header_too ? text.size() : text.rfind("\"format\"");
  switch (pick(5)) {
  case 0: { // delete a character
    std::size_t i = pick(text_end);
    what = "delete character " + std::to_string(i);
    return text.substr(0, i) + text.substr(i + 1);
  }
  case 1: { // change a character
    std::size_t i = pick(text_end);
    static const std::string chars = "{}[]\",:0123456789-.aeNtf ";
    std::string s = text;
    s[i] = chars[pick(chars.size())];
    what = "set character " + std::to_string(i) + " to '" + s[i] + "'";
    return s;
  }
  default:
    break;
  }
  json j = json::parse(text);
  std::vector<json::json_pointer> objects, all;
  collect(header_too ? j : j["expr"],
          header_too ? json::json_pointer() : json::json_pointer("/expr"), all);
  for (const auto& p : all)
    if (j[p].is_object() && !j[p].empty())
      objects.push_back(p);
  switch (pick(3)) {
  case 0: { // flip a key to another one
    const auto& p = objects[pick(objects.size())];
    json& o = j[p];
    auto it = o.begin();
    std::advance(it, pick(o.size()));
    std::string from = it.key(), to = keys[pick(keys.size())];
    json moved = it.value();
    o.erase(from);
    o[to] = moved;
    what = "rename key " + p.to_string() + "/" + from + " to " + to;
    break;
  }
  case 1: { // delete a key
    const auto& p = objects[pick(objects.size())];
    json& o = j[p];
    auto it = o.begin();
    std::advance(it, pick(o.size()));
    what = "delete key " + p.to_string() + "/" + it.key();
    o.erase(it.key());
    break;
  }
  default: { // replace a value
    const auto& p = all[pick(all.size())];
    const json& v = values[pick(values.size())];
    what = "replace " + p.to_string() + " by " + v.dump();
    j[p] = v;
    break;
  }
  }
  return j.dump();
}

// Loads `count` seeded mutants of the bases; returns how many loaded and how many were rejected
// with tessera::Error; any other exception fails the check.
std::pair<int, int> load_mutants(uint32_t count, bool header_too) {
  auto bases = mutation_bases();
  for (const auto& base : bases)
    REQUIRE_NOTHROW(load_expr(base));
  int loaded = 0, rejected = 0;
  for (uint32_t seed = 0; seed < count; ++seed) {
    std::mt19937 rng(seed);
    std::string what;
    std::string text = mutate(bases[seed % bases.size()], rng, what, header_too);
    CAPTURE(seed);
    CAPTURE(what);
    try {
      (void)load_expr(text);
      ++loaded;
    } catch (const tessera::Error&) {
      ++rejected;
    } catch (const std::exception& e) {
      FAIL_CHECK("loading threw " << std::string(typeid(e).name()) << ": "
                                  << std::string(e.what()));
    } catch (...) {
      FAIL_CHECK("loading threw a non-standard exception");
    }
  }
  return {loaded, rejected};
}

} // namespace

TEST_CASE("mutated expressions load or raise tessera::Error") {
  auto [loaded, rejected] = load_mutants(400, false);
  MESSAGE("mutants loaded: " << loaded << ", rejected with tessera::Error: " << rejected);
  CHECK(loaded > 0);
  CHECK(rejected > 0);
}

// Mutating the document header too (e.g. seed 23 replaces /format by 2) gives tessera::Error
// only.
TEST_CASE("mutated documents, header included, load or raise tessera::Error") {
  auto [loaded, rejected] = load_mutants(400, true);
  CHECK(rejected > 0);
}

// The mutants that load are then printed and type-checked: both may raise tessera::Error for
// ill-typed programs, but must not fail in any other way.
TEST_CASE("loaded mutants print and type-check or raise tessera::Error") {
  auto bases = mutation_bases();
  for (uint32_t seed = 0; seed < 400; ++seed) {
    std::mt19937 rng(seed);
    std::string what;
    std::string text = mutate(bases[seed % bases.size()], rng, what, false);
    Expr e;
    try {
      e = load_expr(text);
    } catch (const std::exception&) {
      continue;
    }
    CAPTURE(seed);
    CAPTURE(what);
    try {
      (void)print(e);
      if (e->kind == NodeKind::Lambda)
        (void)infer_type(e);
    } catch (const tessera::Error&) {
    } catch (const std::exception& ex) {
      FAIL_CHECK("printing or type checking threw " << std::string(typeid(ex).name()) << ": "
                                                    << std::string(ex.what()));
    }
  }
}
