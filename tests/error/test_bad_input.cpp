// Every misuse of the language is a tessera::Error whose message names the primitive, what it
// got and what it needed; never a crash, an assert or an InternalError. Front-end mistakes also
// point at the user's line ("[at <file>:<line>]").
#include <doctest/doctest.h>

#include <string>

#include "dsl/Dsl.h"
#include "tests/Helpers.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;
using tessera::testing::error_message;
using tessera::testing::f32_array;
using tessera::testing::random_f32;

namespace {

// The location suffix the front end appends to errors raised on line `line` of this file.
std::string located_at(int line) {
  return std::string(__FILE__) + ":" + std::to_string(line) + "]";
}

Data i32_array(const std::vector<double>& values) {
  return Data::from_flat(ScalarKind::I32, {static_cast<int64_t>(values.size())}, values);
}

Fun sum3() {
  return reduce(add_fun(), 0.0f);
}

// A user function with the typed signature (f32, f32), in the documented spelling.
template <class F> Fun typed_f32_f32(std::string name, F f) {
  return user_fun(std::move(name), hana::tuple_t<float, float>, f);
}

// Whether user_fun accepts a hana::tuple_t signature for a binary lambda.
template <class F>
concept typed_user_fun_compiles = requires(F f) {
  user_fun("mult", hana::tuple_t<float, float>, f);
};

} // namespace

// The typed form of user_fun documented in dsl/UserFun.h,
//   user_fun("mult", hana::tuple_t<float, float>, [](auto x, auto w) { return x * w; }),
// compiles (hana::type<T> is an alias of a nested type_impl<T>::_, so the overload takes
// hana::tuple<Types...> and reads typename Types::type) and fixes the parameter kinds.
TEST_CASE("typed user functions can be declared with hana::tuple_t") {
  auto mult = [](auto x, auto w) { return x * w; };
  CHECK(typed_user_fun_compiles<decltype(mult)>);
  Fun typed = user_fun("mult", hana::tuple_t<float, float>, mult);
  Fun ints = user_fun("imult", hana::tuple_t<std::int32_t, std::int32_t>, mult);
  Val x = input("x", Type::array(f32(), 4));
  Val n = input("n", Type::array(i32(), 4));
  CHECK((x | reduce(typed, 1.0f)).type() == Type::array(f32(), 1));
  CHECK((n | reduce(ints, 1)).type() == Type::array(i32(), 1));
  CHECK_ERROR(n | reduce(typed, 1.0f), "UserFun 'mult'", "argument 1", "f32", "i32");
}

// CHECK_LOCATED(expression): the expression throws a tessera::Error that carries this line.
#define CHECK_LOCATED(expr)                                                                        \
  do {                                                                                             \
    const int tessera_line_ = __LINE__;                                                            \
    std::string tessera_msg_ = error_message([&] { (void)(expr); });                               \
    CHECK_MESSAGE(tessera_msg_.find(" [at ") != std::string::npos, tessera_msg_);                  \
    CHECK_MESSAGE(tessera_msg_.find(located_at(tessera_line_)) != std::string::npos,               \
                  tessera_msg_);                                                                   \
  } while (0)

TEST_CASE("Zip of arrays of unequal length") {
  Val a = input("a", Type::array(f32(), 8));
  Val b = input("b", Type::array(f32(), 6));
  CHECK_THROWS_WITH_AS(zip({a, b}), doctest::Contains("Zip expects arrays of equal length"),
                       tessera::Error);
  CHECK_ERROR(zip({a, b}), "Zip", "[f32]_8", "[f32]_6", "equal length");
  Val c = input("c", Type::array(f32(), 8));
  CHECK_ERROR(zip({a, c, b}), "Zip", "[f32]_8", "[f32]_6", "argument 2");

  Val n = input("n", Type::array(f32(), size("N")));
  Val m = input("m", Type::array(f32(), size("M")));
  CHECK_ERROR(zip({n, m}), "Zip", "[f32]_N", "[f32]_M", "equal length");
  CHECK_NOTHROW(zip({n, input("n2", Type::array(f32(), size("N")))}));

  // Zip needs at least two arrays, and arrays only.
  CHECK_ERROR(zip({a}), "Zip", "at least 2", "got 1");
  CHECK_ERROR(zip({a, a | at(0)}), "Zip", "arrays", "f32");
}

TEST_CASE("Split that does not divide the length") {
  Val x = input("x", Type::array(f32(), 10));
  CHECK_ERROR(x | split(4), "Split(4)", "does not divide", "10", "[f32]_10");

  // Symbolic: Split(4) of [f32]_N is accepted with the assumption N % 4 == 0, which is checked
  // when the program is evaluated with N = 10.
  Val s = input("x", Type::array(f32(), size("N")));
  Expr p = program({s}, s | split(4) | join());
  CHECK_NOTHROW(infer_type(p));
  CHECK(evaluate(p, {random_f32({12}, 1)}).size() == 12);
  CHECK_ERROR(evaluate(p, {random_f32({10}, 1)}), "Split(4)", "does not divide", "[f32]_N");
}

// A failed size assumption names the symbol and the value it was checked with, e.g.
// "Split(4): the chunk size 4 does not divide the length N of [f32]_N (with N = 10)".
TEST_CASE("failed size assumptions report the sizes they were checked with") {
  Val s = input("x", Type::array(f32(), size("N")));
  CHECK_ERROR(evaluate(program({s}, s | split(4)), {random_f32({10}, 1)}), "Split(4)", "N = 10");
  CHECK_ERROR(evaluate(program({s}, s | slide(3, 2)), {random_f32({10}, 1)}), "Slide(3,2)",
              "N = 10");
}

TEST_CASE("Slide whose windows do not fit") {
  Val x = input("x", Type::array(f32(), 10));
  CHECK_ERROR(x | slide(3, 2), "Slide(3,2)", "do not fit", "7", "step 2", "[f32]_10");
  CHECK_ERROR(x | slide(11, 1), "Slide(11,1)", "window size 11", "larger", "[f32]_10");
  Val small = input("y", Type::array(f32(), 4));
  CHECK_ERROR(small | slide(5, 1), "Slide(5,1)", "window size 5", "larger", "length 4");

  // Symbolic: checked at evaluation.
  Val s = input("x", Type::array(f32(), size("N")));
  Expr p = program({s}, s | slide(3, 2));
  CHECK(evaluate(p, {random_f32({9}, 2)}).size() == 4);
  CHECK_ERROR(evaluate(p, {random_f32({10}, 2)}), "Slide(3,2)", "do not fit");
}

TEST_CASE("Pad with a boundary that does not fit the array") {
  Val x = input("x", Type::array(f32(), 3));
  CHECK_ERROR(x | pad(4, 1, mirror), "Pad(4,1,mirror)", "at most", "3", "[f32]_3", "got 4");
  CHECK_ERROR(x | pad(1, 5, wrap), "Pad(1,5,wrap)", "at most", "[f32]_3", "5");
  CHECK_NOTHROW(x | pad(3, 3, mirror));
  CHECK_NOTHROW(x | pad(7, 7, clamp));

  // Symbolic: the interpreter checks it on the actual length.
  Val s = input("x", Type::array(f32(), size("N")));
  CHECK_ERROR(evaluate(program({s}, s | pad(4, 0, wrap)), {random_f32({3}, 3)}), "Pad", "wrap",
              "3");

  // A literal adapts to the element type (issue 14), unless the elements cannot hold it.
  Val y = input("y", Type::array(f32(), 8));
  CHECK_NOTHROW(y | pad(1, 1, constant(0)));
  CHECK_NOTHROW(y | pad(1, 1, constant(0.1)));
  Val z = input("z", Type::array(f64(), 8));
  CHECK_NOTHROW(z | pad(2, 2, constant(1.5f)));
  Val k = input("k", Type::array(i32(), 8));
  CHECK_ERROR(k | pad(1, 1, constant(1.5f)), "Pad(1,1,constant(1.5f))", "f32", "i32", "[i32]_8",
              "not exactly representable");
  CHECK_NOTHROW(k | pad(1, 1, constant(2.0)));
}

TEST_CASE("antisymmetric Pad needs signed numbers and at most the length on each side") {
  Val x = input("x", Type::array(f32(), 3));
  CHECK_ERROR(x | pad(4, 0, antisymmetric), "Pad(4,0,antisymmetric)", "at most", "[f32]_3",
              "got 4");
  CHECK_NOTHROW(x | pad(3, 3, antisymmetric));
  Val bytes = input("b", Type::array(u8(), 4));
  CHECK_ERROR(bytes | pad(1, 1, antisymmetric), "Pad(1,1,antisymmetric)", "negates",
              "signed numbers", "[u8]_4");
  Val flags = input("f", array_of(boolean(), {4, 4}));
  CHECK_ERROR(flags | pad(1, 1, antisymmetric), "antisymmetric", "signed numbers", "bool");
  Val s = input("s", Type::array(f32(), size("N")));
  CHECK_ERROR(evaluate(program({s}, s | pad(0, 4, antisymmetric)), {random_f32({3}, 3)}), "Pad",
              "antisymmetric", "3");
}

// With a symbolic length the side conditions l <= N of Pad(l,r,mirror|wrap), l + r <= N of
// Drop(l,r) and size <= N of Slide(size,step) cannot be proven; they are recorded as assumptions
// (like those of Split and At), which evaluate() checks on the actual sizes.
TEST_CASE("symbolic side conditions of Pad, Drop and Slide are recorded as assumptions") {
  Val s = input("x", Type::array(f32(), size("N")));
  for (const Fun& f : {pad(4, 0, wrap), pad(0, 4, mirror), drop(2, 2), slide(5, 1)}) {
    Expr p = program({s}, s | f);
    TypeChecker checker;
    checker.apply(p, input_types(p));
    CHECK_MESSAGE(!checker.assumptions().empty(), print(p));
    // The assumption holds for N = 4 (or 5 for the Slide) and fails for N = 3.
    CHECK_NOTHROW(evaluate(p, {random_f32({5}, 11)}));
    CHECK_ERROR(evaluate(p, {random_f32({3}, 11)}), "N = 3");
  }
  // A length that is provably large enough needs no assumption.
  Val t = input("t", Type::array(f32(), size("N") + 4));
  Expr q = program({t}, t | pad(4, 0, wrap) | drop(2, 2) | slide(5, 1));
  TypeChecker checker;
  checker.apply(q, input_types(q));
  CHECK(checker.assumptions().empty());
}

TEST_CASE("Drop more than the array holds") {
  Val x = input("x", Type::array(f32(), 4));
  CHECK_ERROR(x | drop(3, 2), "Drop(3,2)", "cannot drop 5", "[f32]_4");
  CHECK_NOTHROW(x | drop(2, 2));
  Val s = input("x", Type::array(f32(), size("N")));
  CHECK_ERROR(evaluate(program({s}, s | drop(2, 2)), {random_f32({3}, 4)}), "Drop(2,2)", "3");
}

TEST_CASE("At out of range") {
  Val x = input("x", Type::array(f32(), 4));
  CHECK_ERROR(x | at(4), "At(4)", "out of range", "[f32]_4", "0 to 3");
  CHECK_ERROR(x.at(9), "At(9)", "out of range", "[f32]_4");
  CHECK_ERROR(x | at(0) | at(0), "At(0)", "expects an array", "f32");
  Val s = input("x", Type::array(f32(), size("N")));
  Expr p = program({s}, s | at(5));
  CHECK(evaluate(p, {random_f32({6}, 5)}).is_scalar());
  CHECK_ERROR(evaluate(p, {random_f32({3}, 5)}), "At(5)", "out of range");
}

TEST_CASE("Get out of range and on a non-tuple") {
  Val a = input("a", Type::array(f32(), 4));
  Val b = input("b", Type::array(i32(), 4));
  Val pairs = zip({a, b});
  CHECK_ERROR(pairs | map(get(2)), "Get(2)", "out of range", "{f32,i32}", "2 components");
  CHECK_ERROR(pairs.at(0).get(5), "Get(5)", "out of range", "{f32,i32}");
  CHECK_ERROR(a | map(get(0)), "Get(0)", "expects a tuple", "f32");
  CHECK_ERROR(a.get(0), "Get(0)", "expects a tuple", "[f32]_4");
}

TEST_CASE("UserFun with the wrong number or types of arguments") {
  Val x = input("x", Type::array(f32(), 4));
  // Arity: add takes two arguments, Map gives it one.
  CHECK_ERROR(x | map(add_fun()), "UserFun 'add'", "takes 2", "got 1");
  auto neg = user_fun("neg", [](auto v) { return -v; });
  CHECK_ERROR(x | reduce(neg, 0.0f), "UserFun 'neg'", "takes 1", "got 2");

  // A typed signature rejects other scalar kinds.
  auto mult = typed_f32_f32("mult", [](auto p, auto q) { return p * q; });
  Val d = input("d", Type::array(f64(), 4));
  CHECK_NOTHROW(x | reduce(mult, 1.0f));
  CHECK_ERROR(d | reduce(mult, 1.0f), "UserFun 'mult'", "argument 1", "f32", "f64");
  CHECK_ERROR(x | reduce(mult, 1.0), "UserFun 'mult'", "argument 0", "f32", "f64");
  Val n = input("n", Type::array(i32(), 4));
  CHECK_ERROR(n | map(Fun([mult](Val v) { return mult(v, v); })), "UserFun 'mult'", "f32", "i32");

  // Arguments must be scalars.
  Val grid = input("g", array_of(f32(), {4, 3}));
  CHECK_ERROR(grid | map(id_fun()), "UserFun 'id'", "scalar", "[f32]_3");
  CHECK_ERROR(add_fun()(x, x), "UserFun 'add'", "scalar", "[f32]_4");

  // A C++ lambda used with the wrong number of arguments.
  CHECK_ERROR(x | reduce(Fun([](Val v) { return v; }), 0.0f), "2 argument");
}

TEST_CASE("Reduce whose function returns the wrong type") {
  Val x = input("x", Type::array(f32(), 4));
  auto less = user_fun("less", [](auto p, auto q) { return p < q; });
  CHECK_ERROR(x | reduce(less, 0.0f), "Reduce", "(f32, f32)", "initial value", "bool");
  // An i32 initial value with f32 elements: add returns f32, not i32.
  CHECK_ERROR(x | reduce(add_fun(), 0), "Reduce", "i32", "f32", "initial value");
  CHECK_ERROR(x | reduce_seq(less, 0.0f), "ReduceSeq", "bool");
}

TEST_CASE("Map, Slide and Join applied to a scalar or a non-nested array") {
  Val x = input("x", Type::array(f32(), 8));
  Val s = x | at(0);
  CHECK_ERROR(s | map(id_fun()), "Map", "expects an array", "f32");
  CHECK_ERROR(s | slide(3, 1), "Slide(3,1)", "expects an array", "f32");
  CHECK_ERROR(s | join(), "Join", "array of arrays", "f32");
  CHECK_ERROR(s | reduce(add_fun(), 0.0f), "Reduce", "expects an array", "f32");
  CHECK_ERROR(s | split(2), "Split(2)", "expects an array", "f32");
  CHECK_ERROR(s | pad(1, 1, clamp), "Pad(1,1,clamp)", "expects an array", "f32");
  // One level too deep: the elements of a 1-D array are scalars.
  CHECK_ERROR(x | map(map(id_fun())), "Map", "expects an array", "f32");
  CHECK_ERROR(x | map(slide(3, 1)), "Slide(3,1)", "expects an array", "f32");
  CHECK_ERROR(x | map_glb(0, map_lcl(0, id_fun())), "MapLcl", "expects an array", "f32");
  CHECK_ERROR(x | join(), "Join", "array of arrays");
  CHECK_ERROR(x | transpose(), "Transpose", "array of arrays");
  CHECK_ERROR(x | slide_nd(2, 3, 1), "Slide(3,1)", "expects an array", "f32");
}

// Join and Transpose of a 1-D array report the array they got, not its element type:
// "Join expects an array of arrays, got [f32]_8 (its elements are f32)".
TEST_CASE("Join and Transpose of a 1-D array report the array they got") {
  Val x = input("x", Type::array(f32(), 8));
  CHECK_ERROR(x | join(), "Join", "array of arrays", "got [f32]_8", "its elements are f32");
  CHECK_ERROR(x | transpose(), "Transpose", "array of arrays", "got [f32]_8");
}

TEST_CASE("Iterate with a function that does not compose with itself") {
  Val x = input("x", Type::array(f32(), 8));
  // Slide maps [f32]_n to [[f32]_3]_m, which it cannot take again as [f32]_n.
  CHECK_ERROR(x | iterate(2, slide(3, 1)), "Iterate(2)", "does not compose", "[f32]_8",
              "[[f32]_3]_6");
  auto to_int = user_fun("toInt", [](auto v) { return cast(ScalarKind::I32, v); });
  CHECK_ERROR(x | iterate(3, map(to_int)), "Iterate(3)", "does not compose", "[i32]_8");
  // Length changes are fine.
  CHECK_NOTHROW(x | iterate(2, slide(3, 1) >> map(sum3()) >> join()));
  CHECK_ERROR(x | iterate(5, slide(3, 1) >> map(sum3()) >> join()), "Slide(3,1)", "larger");
  // Iterate builds its node when applied, so the count is checked there.
  CHECK_ERROR(x | iterate(-1, map(id_fun())), "Iterate", "negative", "-1");
}

TEST_CASE("evaluate with inputs that do not match the program") {
  Val x = input("x", Type::array(f32(), 8));
  Expr p = program({x}, x | map(id_fun()));
  Data good = random_f32({8}, 6);
  CHECK_ERROR(evaluate(p, {}), "program takes 1 input", "got 0");
  CHECK_ERROR(evaluate(p, {good, good}), "program takes 1 input", "got 2");
  CHECK_ERROR(evaluate(p, {random_f32({6}, 6)}), "input 0 ('x')", "[f32]_8", "6");
  Data doubles = Data::from_flat(ScalarKind::F64, {8}, std::vector<double>(8, 0.5));
  CHECK_ERROR(evaluate(p, {doubles}), "input 0 ('x')", "f32", "f64");
  CHECK_ERROR(evaluate(p, {random_f32({2, 4}, 6)}), "input 0 ('x')", "f32");
  CHECK_ERROR(evaluate(p, {Data::f32(1.0)}), "input 0 ('x')", "[f32]_8");

  // Two inputs with the same symbolic length N but different actual lengths.
  Val a = input("a", Type::array(f32(), size("N")));
  Val b = input("b", Type::array(f32(), size("N")));
  Expr q = program({a, b}, zip({a, b}));
  CHECK_ERROR(evaluate(q, {random_f32({5}, 7), random_f32({6}, 7)}), "input 1 ('b')", "N", "5",
              "6");
}

TEST_CASE("a program input without a declared type") {
  Val untyped(make_param("x"), Type::array(f32(), 4));
  CHECK_ERROR(program({untyped}, untyped | map(id_fun())), "program()", "input(name, type)");
  // The same mistake in the IR.
  Expr x = make_param("x");
  Expr p = make_lambda({x}, make_call(make_map(MapKind::Map, 0, id_fun().build({f32()})), {x}));
  CHECK_ERROR(infer_type(p), "program input 'x'", "no declared type");
  CHECK_ERROR(evaluate(p, {f32_array({1, 2})}), "'x'", "no declared type");
  CHECK_ERROR(evaluate(make_call(make_join(), {x}), {}), "program", "lambda");
}

TEST_CASE("negative or zero sizes") {
  CHECK_ERROR(split(0), "Split", "chunk size", "positive", "0");
  CHECK_ERROR(split(-4), "Split", "chunk size", "-4");
  CHECK_ERROR(slide(0, 1), "Slide", "window size", "positive", "0");
  CHECK_ERROR(slide(3, 0), "Slide", "step", "positive", "0");
  CHECK_ERROR(pad(-1, 1, clamp), "Pad", "left padding", "negative", "-1");
  CHECK_ERROR(pad(1, -2, mirror), "Pad", "right padding", "-2");
  CHECK_ERROR(drop(0, -3), "Drop", "right", "-3");
  CHECK_ERROR(at(-1), "At", "index", "-1");
  CHECK_ERROR(get(-1), "Get", "index", "-1");
  CHECK_ERROR(generate(-2, id_fun()), "Generate", "length", "-2");
  Val x = input("x", Type::array(f32(), 4));
  CHECK_ERROR(x | map_glb(3, id_fun()), "MapGlb", "dimension", "3");
  CHECK_ERROR(x | map_lcl(-1, id_fun()), "MapLcl", "dimension", "-1");
  CHECK_ERROR(Type::array(f32(), -1), "array length", "-1");
  CHECK_ERROR(pad_nd(0, 1, 1, clamp), "pad_nd", "dimensions", "0");
}

TEST_CASE("scalar language mistakes in user functions") {
  // An unknown math function.
  auto unknown = [] {
    return user_fun("f", [](auto v) { return Sym(ScalarExpr::call("tanh", {Sym(v).expr()})); });
  };
  CHECK_ERROR(unknown(), "unknown math function 'tanh'");
  auto wrong_arity = [] {
    return user_fun("g", [](auto v) { return Sym(ScalarExpr::call("pow", {Sym(v).expr()})); });
  };
  CHECK_ERROR(wrong_arity(), "'pow'", "takes 2", "got 1");

  // '%' on floats is rejected when the function is typed.
  auto mod = user_fun("mod", [](auto p, auto q) { return p % q; });
  Val x = input("x", Type::array(f32(), 4));
  CHECK_ERROR(x | reduce(mod, 1.0f), "UserFun 'mod'", "'%'", "integer", "f32");
  auto mod_half = user_fun("modHalf", [](auto v) { return v % 0.5; });
  Val n = input("n", Type::array(i32(), 4));
  CHECK_ERROR(n | map(mod_half), "UserFun 'modHalf'", "'%'", "f64");
  CHECK_NOTHROW(n | reduce(mod, 1));

  // Integer division by zero is found when the program runs.
  auto div = user_fun("div", [](auto p, auto q) { return p / q; });
  Val a = input("a", Type::array(i32(), 4));
  Val b = input("b", Type::array(i32(), 4));
  Fun divide([div](Val t) { return div(t.get(0), t.get(1)); });
  Expr p = program({a, b}, zip({a, b}) | map(divide));
  CHECK(evaluate(p, {i32_array({7, -7, 8, 0}), i32_array({2, 2, -3, 5})}) ==
        i32_array({3, -3, -2, 0}));
  CHECK_ERROR(evaluate(p, {i32_array({1, 2, 3, 4}), i32_array({1, 0, 1, 1})}), "division by zero");
  Expr q =
      program({a, b}, zip({a, b}) | map(Fun([mod](Val t) { return mod(t.get(0), t.get(1)); })));
  CHECK_ERROR(evaluate(q, {i32_array({1, 2, 3, 4}), i32_array({1, 1, 0, 1})}), "modulo by zero");
}

// Errors in the scalar language name the user function they occur in: "UserFun 'f': unknown
// math function 'tanh' ..." when the body is built, "UserFun 'div': integer division by zero
// (1 / 0)" when it is evaluated.
TEST_CASE("scalar language errors name the user function") {
  CHECK_ERROR(user_fun("f", [](auto v) { return Sym(ScalarExpr::call("tanh", {Sym(v).expr()})); }),
              "tanh", "'f'");
  CHECK_LOCATED(
      user_fun("f", [](auto v) { return Sym(ScalarExpr::call("tanh", {Sym(v).expr()})); }));
  auto div = user_fun("div", [](auto p, auto q) { return p / q; });
  Val a = input("a", Type::array(i32(), 2));
  Val b = input("b", Type::array(i32(), 2));
  Expr p =
      program({a, b}, zip({a, b}) | map(Fun([div](Val t) { return div(t.get(0), t.get(1)); })));
  CHECK_ERROR(evaluate(p, {i32_array({1, 2}), i32_array({1, 0})}), "division by zero", "'div'",
              "2 / 0");
}

// A weak C++ literal passed to a math function takes the type of the other argument, as in
// arithmetic: fmax(x, 0.5) on f32 data is f32 (like x * 0.5), computed in float by the
// interpreter and printed as a float literal in OpenCL C.
TEST_CASE("weak literals in math functions take the other argument's type") {
  Val x = input("x", Type::array(f32(), 4));
  auto low = user_fun("low", [](auto v) { return fmax(v, 0.5); });
  auto power = user_fun("power", [](auto v) { return pow(fabs(v), 1.5); });
  CHECK((x | map(low)).type() == Type::array(f32(), 4));
  CHECK((x | map(power)).type() == Type::array(f32(), 4));
  CHECK_NOTHROW(x | map(low) | reduce(add_fun(), 0.0f));
  // On f64 data the same functions compute in double.
  Val d = input("d", Type::array(f64(), 4));
  CHECK((d | map(low)).type() == Type::array(f64(), 4));
  // The interpreter computes in float: 0.1 adopts f32 (0.1f), so fmax(0.1f, 0.1) is 0.1f.
  auto tenth = user_fun("tenth", [](auto v) { return fmax(v, 0.1); });
  Val y = input("y", Type::array(f32(), 1));
  CHECK(evaluate(program({y}, y | map(tenth)), {f32_array({0.1})}) == f32_array({0.1}));
  Data out = evaluate(program({y}, y | map(tenth)), {f32_array({-1})});
  CHECK(out[0].as_scalar().kind == ScalarKind::F32);
  CHECK(out[0].number() == static_cast<double>(0.1f));
}

TEST_CASE("front-end errors carry the user's source location") {
  Val x = input("x", Type::array(f32(), 8));
  Val y = input("y", Type::array(f32(), 6));
  CHECK_LOCATED(zip({x, y}));
  CHECK_LOCATED(x | split(3));
  CHECK_LOCATED(x | slide(9, 1));
  CHECK_LOCATED(x | pad(9, 0, wrap));
  CHECK_LOCATED(x | drop(5, 5));
  CHECK_LOCATED(x.at(8));
  CHECK_LOCATED(x.get(0));
  CHECK_LOCATED(x | map(add_fun()));
  CHECK_LOCATED(x | reduce(add_fun(), 0));
  CHECK_LOCATED(x | join());
  CHECK_LOCATED(x | iterate(1, slide(3, 1)));
  CHECK_LOCATED(x | map(map(id_fun())));
  // An error inside a nested function is reported once, at the innermost front-end line.
  std::string msg = error_message([&] { (void)(x | map(Fun([](Val v) { return v | at(0); }))); });
  CHECK(msg.find(" [at ") == msg.rfind(" [at "));
  // The location comes after the message proper.
  CHECK(msg.find("At(0)") < msg.find(" [at "));
}

// Errors raised while a front-end function is constructed (invalid sizes, checked by the make_*
// constructors) and errors of applying a user function directly carry the user's line too:
// user_fun(), id_fun(), add_fun() and mult_fun() take the caller's source location.
TEST_CASE("errors at construction and in direct user function calls carry the user's location") {
  CHECK_LOCATED(split(0));
  CHECK_LOCATED(slide(3, 0));
  CHECK_LOCATED(pad(-1, 1, clamp));
  CHECK_LOCATED(generate(-1, id_fun()));
  Val x = input("x", Type::array(f32(), 8));
  CHECK_LOCATED(add_fun()(x, x));
  Val s = x | at(0);
  CHECK_LOCATED(add_fun()(s));
  CHECK_LOCATED(user_fun("neg", [](auto v) { return -v; })(s, s));
  CHECK_LOCATED(pad_nd(0, 1, 1, clamp));
  // A C++ lambda given to a primitive that calls it with another number of arguments.
  CHECK_ERROR(x | reduce(Fun([](Val v) { return v; }), 0.0f), "the C++ lambda given to Reduce",
              "takes 1 argument", "2 argument");
  CHECK_LOCATED(x | reduce(Fun([](Val v) { return v; }), 0.0f));
  CHECK_ERROR(x | map(Fun([](Val a, Val b) { return a; })), "given to Map", "takes 2",
              "1 argument");
}

TEST_CASE("degenerate inputs: empty arrays, unbound and underivable sizes") {
  Val e = input("e", Type::array(f32(), 0));
  Data empty = Data::from_flat(ScalarKind::F32, {0}, {});
  CHECK(evaluate(program({e}, e | reduce(add_fun(), 1.0f)), {empty}) == f32_array({1}));
  CHECK(evaluate(program({e}, e | split(2)), {empty}).size() == 0);
  CHECK(evaluate(program({e}, e | map(id_fun())), {empty}).size() == 0);
  CHECK_ERROR(e | at(0), "At(0)", "out of range", "[f32]_0");
  CHECK_ERROR(e | pad(1, 1, clamp), "Pad(1,1,clamp)", "empty", "[f32]_0");
  CHECK_ERROR(e | slide(1, 1), "Slide(1,1)", "larger", "[f32]_0");

  // A length that the inputs cannot determine, and sizes that nothing binds.
  Val s = input("s", Type::array(f32(), 2 * size("N")));
  CHECK_ERROR(evaluate(program({s}, s | map(id_fun())), {random_f32({5}, 8)}), "input 0 ('s')",
              "cannot determine", "N");
  // An affine length is solved: N + 2 = 4 binds N = 2.
  Val s2 = input("s", Type::array(f32(), size("N") + 2));
  CHECK(evaluate(program({s2}, s2 | drop(size("N"), 0)), {random_f32({4}, 8)}).size() == 2);
  Val t = input("t", Type::array(f32(), size("N")));
  CHECK_ERROR(evaluate(program({t}, t | at(size("K"))), {random_f32({3}, 9)}), "'K'");
  CHECK_ERROR(evaluate(program({t}, t | split(size("K"))), {random_f32({4}, 9)}), "'K'");
  CHECK_ERROR(evaluate(program({t}, generate(size("K"), id_fun())), {random_f32({4}, 9)}), "'K'");
  // A step that simplifies to zero.
  CHECK_ERROR(slide(1, size("N") - size("N")), "Slide", "step", "0");
  // Iterate(0) is the identity.
  Data x = random_f32({4}, 10);
  CHECK(evaluate(program({t}, t | iterate(0, slide(3, 1))), {x}) == x);
}

// The interpreter's Transpose of an empty outer array ([[f32]_3]_0) gives three empty rows, as
// its type [[f32]_0]_3 says: the row length, which an empty value does not show, comes from the
// argument type that the type rule records (TypeChecker::record_argument). The same holds for
// the element shape a constant Pad fills in around an empty array.
TEST_CASE("Transpose of an empty array of rows has the shape of its type") {
  Val g = input("g", array_of(f32(), {0, 3}));
  Expr p = program({g}, g | transpose());
  CHECK(infer_type(p) == array_of(f32(), {3, 0}));
  CHECK(evaluate(p, {Data::from_flat(ScalarKind::F32, {0, 3}, {})}).size() == 3);
  CHECK(evaluate(p, {Data::from_flat(ScalarKind::F32, {0, 3}, {})}) ==
        Data::from_flat(ScalarKind::F32, {3, 0}, {}));
  // Inside a Map, and with a symbolic row length (M is bound by the second input).
  Val h = input("h", array_of(f32(), {2, 0, size("M")}));
  Val w = input("w", Type::array(f32(), size("M")));
  Expr q = program({h, w}, h | map(transpose()));
  CHECK(evaluate(q, {Data::from_flat(ScalarKind::F32, {2, 0, 4}, {}), random_f32({4}, 12)}) ==
        Data::from_flat(ScalarKind::F32, {2, 4, 0}, {}));
  // Applied to arguments of different types (here by Iterate), the row length of an empty
  // array is not known: an Error rather than a wrong shape.
  Expr r = program({g}, g | iterate(2, transpose()));
  CHECK(infer_type(r) == array_of(f32(), {0, 3}));
  CHECK_ERROR(evaluate(r, {Data::from_flat(ScalarKind::F32, {0, 3}, {})}), "Transpose",
              "empty array", "row length");

  // Constant Pad around an empty array: the constant takes the element shape from the type.
  Val e = input("e", Type::array(f32(), 0));
  CHECK(evaluate(program({e}, e | pad(1, 2, constant(0.5f))), {f32_array({})}) ==
        f32_array({0.5, 0.5, 0.5}));
  Val rows = input("rows", array_of(f32(), {0, 2}));
  CHECK(evaluate(program({rows}, rows | pad(1, 0, constant(1.5f))),
                 {Data::from_flat(ScalarKind::F32, {0, 2}, {})}) ==
        Data::from_flat(ScalarKind::F32, {1, 2}, {1.5, 1.5}));
}

// i32 arithmetic in the interpreter wraps like OpenCL C (two's complement, 32 bits), also when
// the exact 64-bit product exceeds 2^53 (2147483647 * 2147483647 is 1).
TEST_CASE("i32 multiplication wraps like OpenCL C") {
  auto mul = user_fun("mul", [](auto p, auto q) { return p * q; });
  Val a = input("a", Type::array(i32(), 2));
  Val b = input("b", Type::array(i32(), 2));
  Expr p =
      program({a, b}, zip({a, b}) | map(Fun([mul](Val t) { return mul(t.get(0), t.get(1)); })));
  CHECK(evaluate(p, {i32_array({2147483647, 46341}), i32_array({2147483647, 46341})}) ==
        i32_array({1, -2147479015}));
  auto pair = [&](Fun f) {
    return program({a, b}, zip({a, b}) | map(Fun([f](Val t) { return f(t.get(0), t.get(1)); })));
  };
  auto sub = user_fun("sub", [](auto p, auto q) { return p - q; });
  CHECK(evaluate(pair(add_fun()), {i32_array({2147483647, -2147483648.0}), i32_array({1, -1})}) ==
        i32_array({-2147483648.0, 2147483647}));
  CHECK(evaluate(pair(sub), {i32_array({-2147483648.0, 5}), i32_array({1, 7})}) ==
        i32_array({2147483647, -2}));

  // u8 arithmetic promotes to i32 as in C; an integer literal next to a u8 is not truncated to
  // 8 bits.
  Val u = input("u", Type::array(u8(), 2));
  Data bytes = Data::from_flat(ScalarKind::U8, {2}, {1, 255});
  auto scale = user_fun("scale", [](auto v) { return v * 300; });
  CHECK((u | map(scale)).type() == Type::array(i32(), 2));
  CHECK(evaluate(program({u}, u | map(scale)), {bytes}) == i32_array({300, 76500}));
  auto twice = user_fun("twice", [](auto v) { return v + v; });
  CHECK(evaluate(program({u}, u | map(twice)), {bytes}) == i32_array({2, 510}));
}
