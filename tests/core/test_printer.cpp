// The printer writes Lift notation: compositions read right to left with `o` and `$`, programs
// start with their typed inputs, unnamed parameters are p0, p1, ... in order of appearance.
#include <doctest/doctest.h>

#include "dsl/Dsl.h"

using namespace tessera;

namespace {
Fun sum() {
  return reduce(add_fun(), 0.0f);
}
} // namespace

TEST_CASE("printer: stencil chains read right to left") {
  Val x = input("x", Type::array(f32(), 8));
  CHECK(print(program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map(sum()))) ==
        "(x : [f32]_8) => Map(Reduce(add, 0.0f)) o Slide(3,1) o Pad(1,1,clamp) $ x");
  CHECK(print(program({x}, x | pad(2, 0, constant(0.5f)) | drop(1, 1) | at(3))) ==
        "(x : [f32]_8) => At(3) o Drop(1,1) o Pad(2,0,constant(0.5f)) $ x");
  // A composition built with >> prints as the same chain.
  CHECK(print(program({x}, x | (pad(1, 1, wrap) >> slide(3, 1) >> map(sum())))) ==
        "(x : [f32]_8) => Map(Reduce(add, 0.0f)) o Slide(3,1) o Pad(1,1,wrap) $ x");
  CHECK(
      print(program({x}, x | iterate(3, pad(1, 1, wrap) >> slide(3, 1) >> map(sum()) >> join()))) ==
      "(x : [f32]_8) => Iterate(3, Join() o Map(Reduce(add, 0.0f)) o Slide(3,1) o "
      "Pad(1,1,wrap)) $ x");
}

TEST_CASE("printer: symbolic sizes and nested types") {
  Val s = input("x", Type::array(f32(), size("N")));
  CHECK(print(program({s}, s | split(4) | join())) == "(x : [f32]_N) => Join() o Split(4) $ x");
  CHECK(print(program({s}, s | pad(1, 1, mirror) | slide(3, 1) | map(sum()) | join())) ==
        "(x : [f32]_N) => Join() o Map(Reduce(add, 0.0f)) o Slide(3,1) o Pad(1,1,mirror) $ x");
  Val g = input("g", array_of(f32(), {4, 6}));
  CHECK(print(program({g}, g | transpose() | map(reduce_seq_unroll(add_fun(), 0.0f)))) ==
        "(g : [[f32]_6]_4) => Map(ReduceSeqUnroll(add, 0.0f)) o Transpose() $ g");
  // 2-D forms are compositions of the 1-D primitives.
  CHECK(print(program({g}, g | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1))) ==
        "(g : [[f32]_6]_4) => Map(Transpose()) o Map(Map(Slide(3,1))) o Slide(3,1) o "
        "Map(Pad(1,1,clamp)) o Pad(1,1,clamp) $ g");
  Val t = input("t", Type::array(Type::tuple({f32(), i32()}), 8));
  CHECK(print(program({t}, t | map(get(1)))) == "(t : [{f32,i32}]_8) => Map(Get(1)) $ t");
}

TEST_CASE("printer: zip, generate and lambdas") {
  Val a = input("a", Type::array(f32(), 4));
  Val b = input("b", Type::array(f32(), 4));
  CHECK(print(program({a, b}, zip({a, b}) | map(get(1)))) ==
        "(a : [f32]_4, b : [f32]_4) => Map(Get(1)) $ Zip(a, b)");
  CHECK(print(program({a, b}, zip({a, b}) |
                                  map(Fun([](Val t) { return add_fun()(t.get(0), t.get(1)); })))) ==
        "(a : [f32]_4, b : [f32]_4) => Map(fun(p0 => add(Get(0) $ p0, Get(1) $ p0))) $ Zip(a, b)");
  CHECK(print(program({a, b}, zip({a | pad(1, 1, clamp) | drop(1, 1), b}))) ==
        "(a : [f32]_4, b : [f32]_4) => Zip(Drop(1,1) o Pad(1,1,clamp) $ a, b)");
  Val x = input("x", Type::array(f32(), 8));
  auto parity = user_fun("parity", [](auto i) { return i % 2; });
  CHECK(print(program({x}, zip({x, generate(8, parity)}))) ==
        "(x : [f32]_8) => Zip(x, Generate(8, parity))");
  CHECK(print(generate(8, parity).expr()) == "Generate(8, parity)");
  CHECK(print(program({x}, x | map(Fun([](Val v) { return v; })))) ==
        "(x : [f32]_8) => Map(fun(p0 => p0)) $ x");
  // A lambda whose body is a chain on its parameter prints as the composition.
  Val g = input("g", array_of(f32(), {2, 3}));
  CHECK(print(program({g}, g | map(Fun([](Val row) { return row | pad(1, 1, clamp); })))) ==
        "(g : [[f32]_3]_2) => Map(Pad(1,1,clamp)) $ g");
}

TEST_CASE("printer: low-level maps and address spaces") {
  Val x = input("x", Type::array(f32(), 8));
  CHECK(print(program({x}, x | split(4) | map_wrg(0, map_lcl(0, to_private(id_fun()))) | join())) ==
        "(x : [f32]_8) => Join() o MapWrg(0)(MapLcl(0)(toPrivate(id))) o Split(4) $ x");
  CHECK(print(program({x}, x | map_glb(1, to_global(id_fun())) | map_seq(id_fun()))) ==
        "(x : [f32]_8) => MapSeq(id) o MapGlb(1)(toGlobal(id)) $ x");
  CHECK(print(program({x}, x | map_seq_unroll(to_local(id_fun())))) ==
        "(x : [f32]_8) => MapSeqUnroll(toLocal(id)) $ x");
  CHECK(print(program({x}, x | slide(3, 1) | map(reduce_seq(add_fun(), 0.0f)))) ==
        "(x : [f32]_8) => Map(ReduceSeq(add, 0.0f)) o Slide(3,1) $ x");
}

TEST_CASE("printer: literals of every kind") {
  Val d = input("d", Type::array(f64(), 8));
  CHECK(print(program({d}, d | pad(1, 1, constant(0.25)) |
                               map(Fun([](Val v) { return mult_fun()(v, Val(2.0)); })))) ==
        "(d : [f64]_8) => Map(fun(p0 => mult(p0, 2.0))) o Pad(1,1,constant(0.25)) $ d");
  Val n = input("n", Type::array(i32(), 8));
  CHECK(print(program({n}, n | pad(1, 0, constant(7)) | reduce(add_fun(), 3))) ==
        "(n : [i32]_8) => Reduce(add, 3) o Pad(1,0,constant(7)) $ n");
  Val x = input("x", Type::array(f32(), 8));
  CHECK(print(program({x}, x | pad(1, 1, constant(1.5f)))) ==
        "(x : [f32]_8) => Pad(1,1,constant(1.5f)) $ x");
}

TEST_CASE("printer: parameter names are unique and deterministic") {
  Val x = input("x", Type::array(f32(), 8));
  Val x2 = input("x", Type::array(f32(), 8));
  CHECK(print(program({x, x2}, zip({x, x2}))) == "(x : [f32]_8, x0 : [f32]_8) => Zip(x, x0)");
  Val unnamed = input("", Type::array(f32(), 8));
  CHECK(print(program({unnamed, x}, zip({unnamed, x}))) ==
        "(p0 : [f32]_8, x : [f32]_8) => Zip(p0, x)");
  // A user name that looks like a generated one is kept; generated names avoid it.
  Val p0 = input("p0", Type::array(f32(), 8));
  CHECK(print(program({p0}, p0 | map(Fun([](Val v) { return v; })))) ==
        "(p0 : [f32]_8) => Map(fun(p1 => p1)) $ p0");
  // Printing twice gives the same text.
  Expr p = program({x}, x | map(Fun([](Val v) { return add_fun()(v, v); })));
  CHECK(print(p) == print(p));
  CHECK(print(p) == "(x : [f32]_8) => Map(fun(p0 => add(p0, p0))) $ x");
}

TEST_CASE("printer: functions and values outside programs") {
  CHECK(print(make_split(4)) == "Split(4)");
  CHECK(print(make_pad(1, 2, Boundary::mirror())) == "Pad(1,2,mirror)");
  CHECK(print(make_pad(2, 1, Boundary::antisymmetric())) == "Pad(2,1,antisymmetric)");
  CHECK(print(compose({make_split(2), make_join()})) == "Join() o Split(2)");
  Val x = input("x", Type::array(f32(), 8));
  CHECK(print(x.expr()) == "x");
  CHECK(print((x | slide(3, 1)).expr()) == "Slide(3,1) $ x");
  CHECK(print(make_literal(ScalarValue::make(ScalarKind::F32, 0.5))) == "0.5f");
  // f64 literals keep every digit they need to read back as the same double.
  CHECK(print(make_literal(ScalarValue::make(ScalarKind::F64, 1.0 / 9))) == "0.1111111111111111");
  CHECK(print(make_literal(ScalarValue::make(ScalarKind::F64, 0.1))) == "0.1");
  CHECK(print(make_literal(ScalarValue::make(ScalarKind::F64, 2))) == "2.0");
  CHECK(print(make_literal(ScalarValue::make(ScalarKind::Bool, 1))) == "true");
}

// Array lengths that are not atoms are parenthesised, so that types are unambiguous:
// [f32]_(N + 2), not "[f32]_N + 2" (in program headers and every error message).
TEST_CASE("printer: compound lengths are parenthesised") {
  auto N = size("N");
  auto M = size("M");
  CHECK(Type::array(f32(), N + 2).to_string() == "[f32]_(N + 2)");
  CHECK(array_of(f32(), {N - 1, M * 2}).to_string() == "[[f32]_(M * 2)]_(N - 1)");
  Val x = input("x", Type::array(f32(), N + 2));
  CHECK(print(program({x}, x | drop(1, 1))) == "(x : [f32]_(N + 2)) => Drop(1,1) $ x");
}

// OpenCL C text of user function bodies: a weak literal is printed in the kind it adopts (also
// as the argument of a math function), and math function arguments are converted to the kind
// the function computes in, as the interpreter does.
TEST_CASE("printer: scalar bodies in OpenCL C") {
  ScalarExpr x = ScalarExpr::param(0);
  ScalarExpr half = ScalarExpr::constant(ScalarValue::make(ScalarKind::F64, 0.5), true);
  ScalarExpr low = ScalarExpr::call("fmax", {x, half});
  CHECK(low.to_c({"x"}, {ScalarKind::F32}) == "fmax(x, 0.5f)");
  CHECK(low.to_c({"x"}, {ScalarKind::F64}) == "fmax(x, 0.5)");
  CHECK(low.infer({ScalarKind::F32}, "test") == ScalarKind::F32);
  ScalarExpr root = ScalarExpr::call("sqrt", {x});
  CHECK(root.to_c({"n"}, {ScalarKind::I32}) == "sqrt(((float)n))");
  ScalarExpr scale = ScalarExpr::binary(
      ScalarOp::Mul, x, ScalarExpr::constant(ScalarValue::make(ScalarKind::I32, 300), true));
  // i32 arithmetic wraps as in the interpreter: on unsigned values (signed overflow is undefined
  // in C), and a division by a non-constant in 64 bits (INT_MIN / -1).
  CHECK(scale.to_c({"u"}, {ScalarKind::U8}) == "as_int((uint)u * (uint)300)");
  ScalarExpr ratio = ScalarExpr::binary(ScalarOp::Div, x, ScalarExpr::param(1));
  CHECK(ratio.to_c({"a", "b"}, {ScalarKind::I32, ScalarKind::I32}) == "((int)((long)a / b))");
  CHECK(ratio.to_c({"a", "b"}, {ScalarKind::F32, ScalarKind::F32}) == "(a / b)");
  ScalarExpr third = ScalarExpr::binary(
      ScalarOp::Div, x, ScalarExpr::constant(ScalarValue::make(ScalarKind::I32, 3), true));
  CHECK(third.to_c({"a"}, {ScalarKind::I32}) == "(a / 3)");
  CHECK(scale.infer({ScalarKind::U8}, "test") == ScalarKind::I32);
  CHECK(scale.to_c({"x"}, {ScalarKind::F32}) == "(x * 300.0f)");
  ScalarExpr pick = ScalarExpr::select(ScalarExpr::binary(ScalarOp::Lt, x, half), x, half);
  CHECK(pick.to_c({"x"}, {ScalarKind::F32}) == "((x < 0.5f) ? x : 0.5f)");
}
