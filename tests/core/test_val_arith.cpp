// Arithmetic on values (dsl/ValArith.h): typed when built, printed, evaluated like the user
// function it becomes, saved and loaded with its names; ill-typed arithmetic is a located error.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "dsl/Dsl.h"
#include "tests/Helpers.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;

namespace {

// out[i] = 0.25 * (x[i-1] + x[i+1]) + select(x[i] > 0, sqrt(x[i]), -x[i]) over a clamped grid.
Expr inline_1d(int n) {
  Val x = input("x", array_of(f32(), {n}));
  return program({x}, x | pad(1, 1, clamp) | slide(3, 1) | map([](Val w) {
                        Val c = w.at(1);
                        return 0.25f * (w.at(0) + w.at(2)) + select(c > 0, sqrt(c), -c);
                      }));
}

double reference_1d(const std::vector<double>& x, int i) {
  int n = static_cast<int>(x.size());
  double l = x[std::max(i - 1, 0)], r = x[std::min(i + 1, n - 1)], c = x[i];
  return 0.25 * (l + r) + (c > 0 ? std::sqrt(c) : -c);
}

} // namespace

TEST_CASE("an inline expression is one user function of the points it reads") {
  Expr p = inline_1d(12);
  std::string text = print(p);
  INFO(text);
  // One anonymous function of three points, printed as a user function call.
  CHECK(text.find("expr(") != std::string::npos);
  const Expr& f = p->body()->callee()->children[0];
  REQUIRE(f->kind == NodeKind::Lambda);
  const Expr& call = f->body();
  REQUIRE(call->kind == NodeKind::Call);
  REQUIRE(call->callee()->kind == NodeKind::UserFun);
  const UserFunDef& def = *call->callee()->user_fun;
  CHECK(def.arity == 3);
  CHECK(def.param_names == std::vector<std::string>{"im1", "c", "ip1"});
  CHECK(def.signature == std::vector<ScalarKind>(3, ScalarKind::F32));
}

TEST_CASE("an inline expression evaluates as the formula says") {
  Data x = testing::random_f32({12}, 7);
  std::vector<double> xs = x.flatten();
  std::vector<double> got = evaluate(inline_1d(12), {x}).flatten();
  REQUIRE(got.size() == 12);
  bool any_nonzero = false;
  for (int i = 0; i < 12; ++i) {
    CHECK(got[i] == doctest::Approx(reference_1d(xs, i)).epsilon(1e-6));
    any_nonzero |= got[i] != 0;
  }
  CHECK(any_nonzero);
}

TEST_CASE("an inline expression and its names round-trip through JSON") {
  Val x = input("x", array_of(f32(), {6, 5}));
  Expr p = program({x}, x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, [](Val n) {
                          Val s = n.at(0).at(1) + n.at(2).at(1) + n.at(1).at(0) + n.at(1).at(2);
                          return (0.2f * (s + n.at(1).at(1))).named("five_point");
                        }));
  Expr back = load_expr(save_expr(p));
  CHECK(structurally_equal(p, back));
  CHECK(print(back) == print(p));
  CHECK(print(back).find("five_point(") != std::string::npos);
  Data in = testing::random_f32({6, 5}, 9);
  CHECK(evaluate(back, {in}).flatten() == evaluate(p, {in}).flatten());
}

TEST_CASE("weighted_sum is the unrolled sum over a whole neighbourhood") {
  std::vector<double> w(27, 1.0);
  w[13] = -26;
  Val x = input("x", array_of(f32(), {4, 4, 4}));
  Expr p = program({x}, x | pad_nd(3, 1, 1, clamp) | slide_nd(3, 3, 1) |
                            map_nd(3, [&](Val n) { return weighted_sum(n, w) / 26; }));
  Data in = testing::random_f32({4, 4, 4}, 11);
  std::vector<double> xs = in.flatten(), got = evaluate(p, {in}).flatten();
  auto at = [&](int k, int j, int i) {
    auto c = [](int v) { return std::min(std::max(v, 0), 3); };
    return xs[(c(k) * 4 + c(j)) * 4 + c(i)];
  };
  // The cell (1, 2, 3): the sum of its 26 neighbours minus 26 times itself, over 26.
  double sum = 0;
  for (int dk = -1; dk <= 1; ++dk)
    for (int dj = -1; dj <= 1; ++dj)
      for (int di = -1; di <= 1; ++di)
        sum += (dk || dj || di ? 1 : -26) * at(1 + dk, 2 + dj, 3 + di);
  CHECK(got[(1 * 4 + 2) * 4 + 3] == doctest::Approx(sum / 26).epsilon(1e-5));
  CHECK(sum != 0);
}

TEST_CASE("ill-typed arithmetic on values is an error at the user's line") {
  Val a = input("a", f32()), b = input("b", f64()), i = input("i", i32());
  Val flag = a > 0;
  CHECK_ERROR(a + b, "'+' mixes f32 and f64 values", "test_val_arith.cpp:");
  CHECK_ERROR(a < b, "'<' mixes f32 and f64");
  CHECK_ERROR(flag + flag, "'+' needs numbers", "got bool", "test_val_arith.cpp:");
  CHECK_ERROR(flag + 1, "'+': a C++ number cannot be combined with a bool value");
  CHECK_ERROR(-flag, "'-' needs numbers");
  CHECK_ERROR(i * 0.5, "a C++ floating-point number cannot be combined with a i32 value");
  CHECK_ERROR(a && a, "'&&' needs bool values, got f32");
  CHECK_ERROR(a && flag, "'&&' mixes f32 and bool");
  CHECK_ERROR(a % 2, "'%' needs integer values");
  CHECK_ERROR(select(a, a, a), "select needs a bool condition, got f32");
  CHECK_ERROR(select(flag, a, b), "select mixes f32 and f64");
  CHECK_ERROR(sqrt(i), "sqrt needs f32 or f64 values, got i32", "test_val_arith.cpp:");
  CHECK_ERROR(max(a, b), "fmax mixes f32 and f64");
  Val arr = input("arr", array_of(f32(), {3}));
  CHECK_ERROR(arr + 1, "arithmetic needs scalar values", "[f32]_3");
  CHECK_ERROR(arr.named("x"), "only a value built by arithmetic can be named");
  // Well-typed mixes: numbers take the value's type; comparisons give bools.
  CHECK((i * 2 + 1).type() == i32());
  CHECK((a * 2).type() == f32());
  CHECK((b * 0.5f).type() == f64());
  CHECK((flag && (a < 1.5)).type() == boolean());
  CHECK(min(a, 1.0f).type() == f32());
}

namespace {
auto variadic_sum = [](auto... x) { return (x + ...); };
auto three = [](auto a, auto b, auto c) { return a * b + c; };
} // namespace

// A variadic lambda's arity cannot be known: user_fun(name, f) does not compile (its
// static_assert says to write user_fun<N>(name, f)); a fixed arity is found as before.
static_assert(!detail::user_fun_arity_known<decltype(variadic_sum)>());
static_assert(detail::user_fun_arity_known<decltype(three)>());
static_assert(detail::user_fun_arity<decltype(three)>() == 3);

TEST_CASE("user functions of any arity: a variadic lambda with its arity, or a vector of Syms") {
  Fun sum27 = user_fun<27>("sum27", variadic_sum);
  Fun sum40 = user_fun("sum40", 40, [](const std::vector<Sym>& x) {
    Sym s = x[0];
    for (std::size_t i = 1; i < x.size(); ++i)
      s = s + x[i] * static_cast<double>(i + 1);
    return s;
  });
  std::vector<Val> args27, args40;
  for (int i = 0; i < 40; ++i) {
    if (i < 27)
      args27.push_back(Val(static_cast<float>(i)));
    args40.push_back(Val(1.0f));
  }
  Val x = input("x", f32());
  Expr p27 = program({x}, x | Fun([&](Val v) { return sum27.apply(args27) + v; }));
  Expr p40 = program({x}, x | Fun([&](Val v) { return sum40.apply(args40) * v; }));
  CHECK(evaluate(p27, {Data::f32(1)}).flatten() == std::vector<double>{27 * 26 / 2 + 1});
  CHECK(evaluate(p40, {Data::f32(2)}).flatten() == std::vector<double>{2 * 40 * 41 / 2});
  CHECK_ERROR(sum27.apply({x, x}), "sum27", "takes 27 argument(s), got 2");
  CHECK_ERROR(user_fun("none", 0, [](const std::vector<Sym>& v) { return v[0]; }),
              "the arity must be at least 1");
  // A lambda over any number of values.
  Fun mean = [](const std::vector<Val>& v) {
    Val s = v[0];
    for (std::size_t i = 1; i < v.size(); ++i)
      s = s + v[i];
    return s / static_cast<int>(v.size());
  };
  Expr pm = program({x}, x | Fun([&](Val v) { return mean(v, v * 2, v * 3, v * 4, v * 5); }));
  CHECK(evaluate(pm, {Data::f32(2)}).flatten() == std::vector<double>{6});
}

namespace {
// A 9x9x9 box stencil (729 points, radius 4) written with weighted_sum.
Expr box_729() {
  std::vector<double> w(729);
  for (std::size_t k = 0; k < w.size(); ++k)
    w[k] = 1.0 + static_cast<double>(k % 7) / 8;
  Val x = input("x", array_of(f32(), {16, 16, 16}));
  return program({x}, x | pad_nd(3, 4, 4, clamp) | slide_nd(3, 9, 1) | map_nd(3, [&](Val n) {
                        return (weighted_sum(n, w) / 729).named("box");
                      }));
}

// The definition of the user function `name` in `e`, or null.
const UserFunDef* find_user_fun(const Expr& e, const std::string& name) {
  if (e->kind == NodeKind::UserFun && e->user_fun->name == name)
    return e->user_fun.get();
  for (const auto& c : e->children)
    if (const UserFunDef* found = find_user_fun(c, name))
      return found;
  return nullptr;
}
} // namespace

TEST_CASE("a 729-point stencil is one user function and its program file is well under 1 MB") {
  Expr p = box_729();
  std::string text = save_expr(p);
  MESSAGE("729-point box: " << text.size() << " bytes saved (pretty-printed: "
                            << expr_to_json(p).dump(2).size() << ")");
  CHECK(text.size() < 1000000);
  CHECK(text.find("\n  ") == std::string::npos); // not pretty-printed
  Expr back = load_expr(text);
  CHECK(structurally_equal(back, p));
  const UserFunDef* box = find_user_fun(p, "box");
  REQUIRE(box != nullptr);
  CHECK(box->arity == 729);
  CHECK(box->param_names[0] == "km4_jm4_im4");
}
