// JSON round trip of expressions: for a varied set of programs, loading what was saved gives a
// program that prints the same, is structurally equal, hashes the same, saves to the same text
// and computes the same results on random data; the same through files.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "dsl/Dsl.h"

using namespace tessera;

namespace {

// Random data of type `t`, with the size variables' values given in `sizes`. Integers are small
// and never zero (so that user functions may divide by them).
Data random_data(const Type& t, const std::map<std::string, int64_t>& sizes, std::mt19937& rng) {
  switch (t.kind()) {
  case TypeKind::Scalar: {
    ScalarKind k = t.scalar_kind();
    double v = 0;
    if (is_floating(k)) {
      v = std::uniform_real_distribution<double>(-1.0, 1.0)(rng);
    } else if (k == ScalarKind::Bool) {
      v = static_cast<double>(rng() % 2);
    } else if (k == ScalarKind::U8) {
      v = static_cast<double>(1 + rng() % 255);
    } else {
      int64_t i = std::uniform_int_distribution<int64_t>(-20, 19)(rng);
      v = static_cast<double>(i >= 0 ? i + 1 : i);
    }
    return Data::scalar(ScalarValue::make(k, v));
  }
  case TypeKind::Array: {
    std::vector<Data> items;
    int64_t n = t.length().evaluate(sizes);
    for (int64_t i = 0; i < n; ++i)
      items.push_back(random_data(t.element(), sizes, rng));
    return Data::array(std::move(items));
  }
  case TypeKind::Tuple: {
    std::vector<Data> items;
    for (const auto& m : t.elements())
      items.push_back(random_data(m, sizes, rng));
    return Data::tuple(std::move(items));
  }
  }
  return {};
}

// A user function with the typed signature (f32, f32).
template <class F> Fun typed_f32_f32(std::string name, F f) {
  return user_fun(std::move(name), hana::tuple_t<float, float>, f);
}

struct Case {
  std::string name;
  Expr program;
  std::map<std::string, int64_t> sizes; // values of the size variables for random inputs
};

Fun sum() {
  return reduce(add_fun(), 0.0f);
}

std::vector<Case> programs() {
  std::vector<Case> cases;
  auto N = size("N");
  auto M = size("M");
  Val x = input("x", Type::array(f32(), 8));
  cases.push_back(
      {"3-point stencil", program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map(sum()))});

  // Every boundary kind, on f32, f64 and i32 data.
  cases.push_back({"mirror", program({x}, x | pad(2, 3, mirror) | slide(5, 2) | map(sum()))});
  cases.push_back({"wrap", program({x}, x | pad(8, 1, wrap))});
  cases.push_back({"constant f32", program({x}, x | pad(1, 2, constant(0.5f)))});
  Val d = input("d", Type::array(f64(), N));
  cases.push_back(
      {"constant f64",
       program({d}, d | pad(1, 1, constant(0.25)) | slide(3, 1) | map(reduce(add_fun(), 0.0))),
       {{"N", 7}}});
  Val n = input("n", Type::array(i32(), 9));
  cases.push_back({"constant i32", program({n}, n | pad(2, 2, constant(-7)) | slide(3, 2))});

  // Data-layout primitives.
  Val g = input("g", array_of(f32(), {4, 6}));
  cases.push_back(
      {"split, join, drop, at, transpose",
       program({g}, g | transpose() | map(split(2) >> join() >> drop(1, 0)) | map(at(2)))});
  cases.push_back({"2-D stencil", program({g}, g | pad_nd(2, 1, 1, mirror) | slide_nd(2, 3, 1) |
                                                   map_nd(2, join_nd(2) >> sum()))});
  Val v = input("v", array_of(f32(), {4, 4, 4}));
  cases.push_back(
      {"3-D stencil", program({v}, v | pad_nd(3, 1, 1, clamp) | drop_nd(3, 1, 1) | split_nd(3, 2) |
                                       map_nd(3, join_nd(3) >> sum()))});

  // Low-level maps with dimensions and address spaces.
  cases.push_back(
      {"low-level maps",
       program({g}, g | map_wrg(1, split(3) >> map_lcl(0, map_seq(to_local(id_fun()))) >> join()) |
                        map_glb(0, map_seq_unroll(to_private(id_fun()))))});
  cases.push_back(
      {"low-level reduces", program({x}, x | slide(3, 1) |
                                             map_glb(0, to_global(reduce_seq(add_fun(), 0.0f)) >>
                                                            reduce_seq_unroll(mult_fun(), 1.0f)))});

  // Iterate, fixed and changing length.
  cases.push_back({"iterate", program({x}, x | iterate(3, pad(1, 1, wrap) >> slide(3, 1) >>
                                                              map(sum()) >> join()))});
  Val s = input("s", Type::array(f32(), N));
  cases.push_back({"iterate shrinking",
                   program({s}, s | iterate(2, slide(3, 1) >> map(sum()) >> join())),
                   {{"N", 11}}});

  // Generate with an index-aware user function.
  auto parity = user_fun("parity", [](auto i) { return i % 2; });
  auto weigh = user_fun("weigh", [](auto value, auto colour) {
    return select(colour == 0, value * 0.5, value - cast(ScalarKind::F32, colour));
  });
  cases.push_back({"generate", program({x}, zip({x, generate(8, parity)}) | map(Fun([weigh](Val t) {
                                              return weigh(t.get(0), t.get(1));
                                            })))});

  // Zip of three inputs with symbolic sizes.
  Val a = input("a", Type::array(f32(), N));
  Val b = input("b", Type::array(f32(), N));
  Val c = input("c", Type::array(f32(), N));
  auto fma3 = user_fun("fma3", [](auto p, auto q, auto r) { return p * q + r; });
  cases.push_back({"zip of 3",
                   program({a, b, c}, zip({a, b, c}) | map(Fun([fma3](Val t) {
                                        return fma3(t.get(0), t.get(1), t.get(2));
                                      }))),
                   {{"N", 6}}});

  // Symbolic sizes in two dimensions, with assumptions (N % 2 == 0).
  Val sym = input("m", array_of(f32(), {N, M}));
  cases.push_back(
      {"symbolic 2-D",
       program({sym}, sym | map(split(2) >> join()) | transpose() | pad_nd(2, 1, 2, wrap) |
                          slide_nd(2, 3, 1) | map_nd(2, join_nd(2) >> sum())),
       {{"N", 5}, {"M", 4}}});

  // Typed user functions and the scalar language: math, casts, weak literals, comparisons.
  auto mult = typed_f32_f32("multTyped", [](auto p, auto q) { return p * q; });
  auto shape = user_fun("shape", [](auto p) {
    return sqrt(fabs(p)) + exp(p) * 0.25 - log(fabs(p) + 1) + floor(p * 4) - ceil(p) +
           sin(p) * cos(p) + fmin(p, p * 0.5) * fmax(p, -p) + pow(fabs(p), fabs(p) + 0.5);
  });
  cases.push_back({"typed and math user functions",
                   program({x}, x | map(shape) | slide(2, 2) | map(reduce(mult, 1.0f)))});

  // f64, i32 and u8 data.
  Val dd = input("dd", Type::array(f64(), 6));
  auto blend = user_fun("blend", [](auto p, auto q) { return select(p < q, p * 2.0, q / 3); });
  cases.push_back({"f64", program({dd}, dd | slide(2, 1) | map(Fun([blend](Val w) {
                                          return blend(w.at(0), w.at(1));
                                        })))});
  Val i = input("i", Type::array(i32(), 8));
  Val j = input("j", Type::array(i32(), 8));
  auto arith = user_fun("arith", [](auto p, auto q) {
    return select(p % q != 0 && !(p < 0 || q < 0), p / q, (-p * q + 3) % 7);
  });
  cases.push_back({"i32", program({i, j}, zip({i, j}) | map(Fun([arith](Val t) {
                                            return arith(t.get(0), t.get(1));
                                          })) |
                                              reduce(add_fun(), 0))});
  Val u = input("u", Type::array(u8(), 5));
  auto widen = user_fun("widen", [](auto p) { return cast(ScalarKind::I32, p) * 3 - 1; });
  cases.push_back({"u8", program({u}, u | map(widen))});
  Val flags = input("flags", Type::array(boolean(), 4));
  auto pick = user_fun("pick", [](auto p) { return select(p, 1.5f, -2.5f); });
  cases.push_back({"bool", program({flags}, flags | map(pick))});
  return cases;
}

// Random inputs for a program.
std::vector<Data> random_inputs(const Case& c, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<Data> inputs;
  for (const auto& t : input_types(c.program))
    inputs.push_back(random_data(t, c.sizes, rng));
  return inputs;
}

// A fresh temporary directory, removed at the end of the scope.
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "tessera-json-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

} // namespace

TEST_CASE("json: programs survive a round trip through text") {
  for (const auto& c : programs()) {
    CAPTURE(c.name);
    std::string text = save_expr(c.program);
    Expr loaded = load_expr(text);
    CHECK(print(loaded) == print(c.program));
    CHECK(structurally_equal(loaded, c.program));
    CHECK(structurally_equal(c.program, loaded));
    CHECK(structural_hash(loaded) == structural_hash(c.program));
    CHECK(save_expr(loaded) == text);
    CHECK(infer_type(loaded) == infer_type(c.program));
    for (uint32_t seed : {1u, 2u, 3u}) {
      auto inputs = random_inputs(c, seed);
      Data before = evaluate(c.program, inputs);
      Data after = evaluate(loaded, inputs);
      CHECK(before == after);
    }
  }
}

TEST_CASE("json: the comparisons used above tell different programs apart") {
  Val x = input("x", Type::array(f32(), 8));
  Expr p = program({x}, x | pad(1, 1, clamp) | slide(3, 1));
  for (const Expr& other : {program({x}, x | pad(1, 1, clamp) | slide(4, 2)),
                            program({x}, x | pad(1, 1, wrap) | slide(3, 1)),
                            program({x}, x | pad(1, 1, constant(0.0f)) | slide(3, 1)),
                            program({x}, x | map(id_fun()))}) {
    Expr loaded = load_expr(save_expr(other));
    CHECK_FALSE(structurally_equal(loaded, p));
    CHECK(print(loaded) != print(p));
  }
  // Map kinds and dimensions are part of the structure.
  Expr glb0 = program({x}, x | map_glb(0, id_fun()));
  Expr glb1 = program({x}, x | map_glb(1, id_fun()));
  Expr seq = program({x}, x | map_seq(id_fun()));
  CHECK_FALSE(structurally_equal(load_expr(save_expr(glb0)), glb1));
  CHECK_FALSE(structurally_equal(load_expr(save_expr(glb0)), seq));
  CHECK(structurally_equal(load_expr(save_expr(glb1)), glb1));
}

TEST_CASE("json: expressions that are not programs") {
  Val x = input("x", Type::array(f32(), 8));
  auto parity = user_fun("parity", [](auto i) { return i % 2; });
  for (const Expr& e :
       {make_split(4), make_pad(1, 2, Boundary::constant(ScalarValue::make(ScalarKind::I32, 3))),
        make_pad(2, 1, Boundary::antisymmetric()), compose({make_split(2), make_join()}),
        (x | slide(3, 1)).expr(), x.expr(), generate(8, parity).expr(),
        make_literal(ScalarValue::make(ScalarKind::F64, 0.1))}) {
    std::string text = save_expr(e);
    CAPTURE(text);
    Expr loaded = load_expr(text);
    CHECK(print(loaded) == print(e));
    CHECK(save_expr(loaded) == text);
  }
  // A shared parameter stays shared: both uses refer to one loaded node.
  Expr body = zip({x, x}).expr();
  Expr loaded = load_expr(save_expr(body));
  auto args = loaded->call_args();
  REQUIRE(args.size() == 2);
  CHECK(args[0].same_as(args[1]));
  CHECK(args[0]->name == "x");
  REQUIRE(args[0]->declared_type.has_value());
  CHECK(*args[0]->declared_type == Type::array(f32(), 8));
}

TEST_CASE("json: types") {
  auto N = size("N");
  for (const Type& t : {f32(), f64(), i32(), u8(), boolean(), Type::array(f32(), 8),
                        array_of(f64(), {N, N + 2, 3}), Type::tuple({f32(), Type::array(i32(), N)}),
                        Type::array(Type::tuple({u8(), boolean()}), N * 2)}) {
    nlohmann::json j = t;
    CAPTURE(j.dump());
    CHECK(type_from_json(j) == t);
    CHECK(type_from_json(nlohmann::json::parse(j.dump())).to_string() == t.to_string());
  }
}

// A Pad constant or a literal that is not finite (e.g. constant(-INFINITY), the natural boundary
// of a max filter) is saved as the string "inf", "-inf" or "nan" (a JSON number cannot hold it).
TEST_CASE("json: non-finite constants survive a round trip") {
  Val x = input("x", Type::array(f32(), 8));
  auto biggest = user_fun("biggest", [](auto p, auto q) { return fmax(p, q); });
  Expr p = program({x}, x | pad(1, 1, constant(-INFINITY)) | slide(3, 1) |
                            map(reduce(biggest, -INFINITY)));
  Expr loaded;
  CHECK_NOTHROW(loaded = load_expr(save_expr(p)));
  if (loaded) {
    CHECK(print(loaded) == print(p));
    CHECK(structurally_equal(loaded, p));
    Data in = Data::from_flat(ScalarKind::F32, {8}, {1, -2, 3, 0.5, -7, 2, 2, 9});
    CHECK(evaluate(loaded, {in}) == evaluate(p, {in}));
  }
  // Each non-finite value, in both floating kinds, as a JSON string.
  for (ScalarKind kind : {ScalarKind::F32, ScalarKind::F64})
    for (double v : {INFINITY, -INFINITY, NAN}) {
      nlohmann::json j = ScalarValue::make(kind, v);
      CAPTURE(j.dump());
      CHECK(j["value"].is_string());
      ScalarValue back = scalar_value_from_json(nlohmann::json::parse(j.dump()));
      CHECK(back.kind == kind);
      CHECK((std::isnan(v) ? std::isnan(back.real) : back.real == v));
    }
  // Finite values stay JSON numbers; the strings are for floating kinds only.
  CHECK(nlohmann::json(ScalarValue::make(ScalarKind::F32, 0.5))["value"].is_number());
  CHECK_THROWS_AS(scalar_value_from_json({{"type", "i32"}, {"value", "inf"}}), tessera::Error);
  CHECK_THROWS_AS(scalar_value_from_json({{"type", "f32"}, {"value", "infinity"}}), tessera::Error);
}

// A chain of sums, differences or products is one node with its operands in order (its left
// fold): the depth of a file does not grow with a weighted sum's terms.
namespace {

// The same tree of parameters and operators (what the chains below are made of).
bool same_tree(const ScalarExpr& x, const ScalarExpr& y) {
  if (x.op() != y.op() || x.args().size() != y.args().size())
    return false;
  if (x.op() == ScalarOp::Param)
    return x.param_index() == y.param_index();
  for (std::size_t i = 0; i < x.args().size(); ++i)
    if (!same_tree(x.args()[i], y.args()[i]))
      return false;
  return true;
}

} // namespace

TEST_CASE("json: chains of sums are written flat and read back as the same left fold") {
  const ScalarExpr a = ScalarExpr::param(0), b = ScalarExpr::param(1), c = ScalarExpr::param(2);
  const ScalarExpr sum = ScalarExpr::binary(ScalarOp::Add, ScalarExpr::binary(ScalarOp::Add, a, b),
                                            ScalarExpr::binary(ScalarOp::Mul, b, c));
  nlohmann::json j = sum;
  REQUIRE(j["args"].size() == 3); // (a + b) + (b * c): a, b, b * c
  CHECK(j["args"][2]["op"] == "mul");
  CHECK(same_tree(scalar_expr_from_json(j), sum));
  // Right-nested operands keep their own node: a - (b - c) is not (a - b) - c.
  const ScalarExpr right =
      ScalarExpr::binary(ScalarOp::Sub, a, ScalarExpr::binary(ScalarOp::Sub, b, c));
  j = right;
  CHECK(j["args"].size() == 2);
  CHECK(same_tree(scalar_expr_from_json(j), right));
  // Files of binary nodes (before chains were flat) still load; a chain needs two operands and
  // only sums, differences and products chain.
  nlohmann::json binary = {{"op", "sub"}, {"args", {nlohmann::json(a), nlohmann::json(b)}}};
  CHECK(same_tree(scalar_expr_from_json(binary), ScalarExpr::binary(ScalarOp::Sub, a, b)));
  CHECK_THROWS_WITH_AS(scalar_expr_from_json({{"op", "add"}, {"args", {nlohmann::json(a)}}}),
                       doctest::Contains("'add' needs 2 arguments or more"), tessera::Error);
  CHECK_THROWS_WITH_AS(
      scalar_expr_from_json(
          {{"op", "div"}, {"args", {nlohmann::json(a), nlohmann::json(b), nlohmann::json(c)}}}),
      doctest::Contains("'div' needs 2 argument(s)"), tessera::Error);
}

TEST_CASE("json: files round trip in a temporary directory") {
  TempDir dir;
  auto cases = programs();
  for (std::size_t k = 0; k < cases.size(); ++k) {
    const auto& c = cases[k];
    CAPTURE(c.name);
    std::string path = (dir.path / ("program" + std::to_string(k) + ".json")).string();
    save_expr_file(c.program, path);
    CHECK(std::filesystem::exists(path));
    CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
    Expr loaded = load_expr_file(path);
    CHECK(print(loaded) == print(c.program));
    CHECK(structurally_equal(loaded, c.program));
    auto inputs = random_inputs(c, 7);
    CHECK(evaluate(loaded, inputs) == evaluate(c.program, inputs));
    // The file holds exactly the text save_expr gives.
    std::ifstream in(path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    CHECK(text == save_expr(c.program));
  }
  // Saving over an existing file replaces it.
  std::string path = (dir.path / "program0.json").string();
  save_expr_file(cases.back().program, path);
  CHECK(print(load_expr_file(path)) == print(cases.back().program));
  CHECK_FALSE(std::filesystem::exists(path + ".tmp"));
}
