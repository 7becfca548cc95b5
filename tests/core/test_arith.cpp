// Tests for core/arith: canonical forms, floor division, range-based simplification, the
// prover, printing, JSON, errors, and a randomized comparison against naive evaluation.
#include <doctest/doctest.h>

#include <functional>
#include <nlohmann/json.hpp>
#include <random>

#include "core/Error.h"
#include "core/arith/ArithExpr.h"
#include "tests/Helpers.h"

using namespace tessera;
using tessera::testing::error_of;

namespace {

// Checks structural equality and prints both sides on failure.
#define CHECK_SAME(a, b)                                                                           \
  do {                                                                                             \
    ArithExpr lhs_ = (a), rhs_ = (b);                                                              \
    CHECK_MESSAGE(lhs_.same_as(rhs_), lhs_.to_string(), "  vs expected  ", rhs_.to_string());      \
  } while (0)

const ArithExpr N = ArithExpr::size_var("N");
const ArithExpr M = ArithExpr::size_var("M");
const ArithExpr x = ArithExpr::var("x");
const ArithExpr y = ArithExpr::var("y");
const ArithExpr i = ArithExpr::var("i", 0, N - 1);
const ArithExpr j = ArithExpr::var("j", 0, M - 1);

} // namespace

TEST_CASE("arith: constant folding uses floor division") {
  CHECK((ArithExpr(-7) / 2).value() == -4);
  CHECK((ArithExpr(-7) % 2).value() == 1);
  CHECK((ArithExpr(7) / -2).value() == -4);
  CHECK((ArithExpr(7) % -2).value() == -1);
  CHECK((ArithExpr(-7) / -2).value() == 3);
  CHECK((ArithExpr(-7) % -2).value() == -1);
  CHECK((ArithExpr(6) / 3).value() == 2);
  CHECK((ArithExpr(3) * 4 + 5 - 2).value() == 15);
  CHECK(min(ArithExpr(3), -2).value() == -2);
  CHECK(max(ArithExpr(3), -2).value() == 3);
  CHECK(lt(ArithExpr(1), 2).value() == 1);
  CHECK(le(ArithExpr(3), 2).value() == 0);
  CHECK(eq(ArithExpr(2), 2).value() == 1);
  // evaluate agrees
  CHECK((x / 2).evaluate({{"x", -7}}) == -4);
  CHECK((x % 2).evaluate({{"x", -7}}) == 1);
}

TEST_CASE("arith: like terms, flattening and canonical order") {
  CHECK_SAME(2 * x + 3 * x, 5 * x);
  CHECK_SAME(x - x, 0);
  CHECK_SAME(x + y, y + x);
  CHECK_SAME((x + 1) + (y + 2), y + (x + 3));
  CHECK_SAME(x * y, y * x);
  CHECK_SAME(2 * (x + y), 2 * y + 2 * x);
  CHECK_SAME((x + 1) * (x - 1), x * x - 1);
  CHECK_SAME(x * 0, 0);
  CHECK_SAME(x * 1 + 0, x);
  CHECK_SAME(-(-x), x);
  // Same result whatever the construction order.
  ArithExpr a = ((x * 3 + N) - y * 2) + 7;
  ArithExpr b = 7 + (N - (2 * y - 3 * x));
  CHECK_SAME(a, b);
  CHECK(a.hash() == b.hash());
  CHECK_FALSE(a.less_than(b));
  CHECK_FALSE(b.less_than(a));
  CHECK((x + 1).less_than(x + 2) != (x + 2).less_than(x + 1));
}

TEST_CASE("arith: to_string") {
  CHECK((N - 2).to_string() == "N - 2");
  CHECK(((i / 4) * 4 + j).to_string() == "(i / 4) * 4 + j");
  CHECK(min(i, M).to_string() == "min(i, M)");
  CHECK(min(x, N - 1).to_string() == "min(N - 1, x)");
  CHECK(select(lt(x, N), x, y).to_string() == "(x < N) ? x : y");
  CHECK((N - x).to_string() == "N - x");
  CHECK((-x).to_string() == "-x");
  CHECK((x * -3).to_string() == "-x * 3");
  CHECK((N - 2 * x + 1).to_string() == "N - x * 2 + 1");
  CHECK(((x + 1) / 2).to_string() == "(x + 1) / 2");
  CHECK(((x + 1) % N).to_string() == "(x + 1) % N");
  CHECK(ArithExpr(-3).to_string() == "-3");
  CHECK(logical_and(lt(x, N), le(y, 3)).to_string() == "(x < N) && (y <= 3)");
}

TEST_CASE("arith: division and modulo rules") {
  CHECK_SAME((x * N) / N, x);
  CHECK_SAME((4 * x + y) / 4, x + y / 4);
  CHECK_SAME((x + 4 * y) % 4, x % 4);
  CHECK_SAME((x + N * y) % N, x % N);
  CHECK_SAME(x / 1, x);
  CHECK_SAME(x % 1, 0);
  CHECK_SAME((x / 4) * 4 + x % 4, x);
  CHECK_SAME(3 * ((x / 4) * 4) + 3 * (x % 4), 3 * x);
  CHECK_SAME(y + (x / 4) * 4 + 2 + x % 4, x + y + 2);
  CHECK_SAME((x / N) * N + x % N, x);
  CHECK_SAME(x - (x / 4) * 4, x % 4);
  CHECK_SAME((x / 2) / 3, x / 6);
  CHECK_SAME((x % 4) % 4, x % 4);
  CHECK_SAME((x % 8) % 4, x % 4);
  CHECK_SAME((2 * x + 1) / 4, x / 2);
  CHECK_SAME((2 * x + 1) % 4, 2 * (x % 2) + 1);
  CHECK_SAME(((2 * x + 1) / 4) * 4 + (2 * x + 1) % 4, 2 * x + 1);
  CHECK_SAME((N * x * 2 + y) / N, 2 * x + y / N);
  CHECK_SAME((x + 3) / N * 1, (x + 3) / N);
}

TEST_CASE("arith: range-based simplification") {
  CHECK_SAME(i % N, i);
  CHECK_SAME(i / N, 0);
  CHECK_SAME(min(i, N - 1), i);
  CHECK_SAME(max(i, 0), i);
  CHECK_SAME(max(i, N), N);
  CHECK_SAME(lt(i, N), 1);
  CHECK_SAME(le(N, i), 0);
  ArithExpr k = ArithExpr::var("k", 0, 3);
  CHECK_SAME(k % 4, k);
  CHECK_SAME(k / 4, 0);
  CHECK_SAME((k + 4) / 4, 1);
  CHECK_SAME((k + 4) % 4, k);
  // Not enough information: kept.
  CHECK((i % M).kind() == ArithKind::Mod);
  CHECK(min(i, M).kind() == ArithKind::Min);
}

TEST_CASE("arith: prover") {
  CHECK(prove_lt(i, N) == Truth::Yes);
  CHECK(prove_le(i + 1, N) == Truth::Yes);
  CHECK(prove_lt(i + 1, N) == Truth::Unknown);
  CHECK(prove_nonneg(i - 1) == Truth::Unknown);
  CHECK(prove_nonneg(N - 1) == Truth::Yes);
  CHECK(prove_nonneg(-N) == Truth::No);
  CHECK(prove_lt(N, i) == Truth::No);
  CHECK(prove_eq(i + 1 - i, 1) == Truth::Yes);
  CHECK(prove_eq(N, 0) == Truth::No);
  CHECK(prove_eq(N, M) == Truth::Unknown);
  CHECK(prove_le(i * 2, 2 * N - 2) == Truth::Yes);
  CHECK(prove_nonneg(N * M - 1) == Truth::Yes);
  CHECK(prove_divisible(4 * N, 2) == Truth::Yes);
  CHECK(prove_divisible(N, 2) == Truth::Unknown);
  CHECK(prove_divisible(4 * N + 2, 4) == Truth::No);
  CHECK(prove_divisible(N * M * 6, 3 * N) == Truth::Yes);
  CHECK(prove_divisible(12, 4) == Truth::Yes);
  CHECK(prove_divisible(13, 4) == Truth::No);
  CHECK(prove_divisible(x, 0) == Truth::Unknown); // never throws
  ArithExpr big = ArithExpr(INT64_MAX) * x;
  CHECK(prove_nonneg(big + INT64_MAX) == Truth::Unknown); // overflow inside -> Unknown
}

TEST_CASE("arith: prover relaxes min, max, select, div and mod atoms") {
  CHECK(prove_nonneg(i - i / 2) == Truth::Yes);
  CHECK(prove_lt(min(max(i - 1, 0), N - 1), N) == Truth::Yes);
  CHECK(prove_le(x % N, N - 1) == Truth::Yes);
  CHECK(prove_nonneg(select(lt(x, y), i, N)) == Truth::Yes);
  CHECK(prove_nonneg(select(lt(x, y), i, x)) == Truth::Unknown);
  CHECK(prove_lt(max(i, j), max(N, M)) == Truth::Yes);
  CHECK(prove_lt(min(i, j), N) == Truth::Yes);
  CHECK(prove_lt(max(i, j), N) == Truth::Unknown);
  // Slide(size 3, step 2): window w in [0, (N-3)/2], element e in [0, 2]: w*2 + e < N.
  ArithExpr w = ArithExpr::var("w", 0, (N - 3) / 2);
  ArithExpr e = ArithExpr::var("e", 0, 2);
  CHECK(prove_lt(w * 2 + e, N) == Truth::Yes);
  CHECK(prove_lt(w * 2 + e, N - 1) == Truth::Unknown);
  CHECK_SAME((w * 2 + e) % N, w * 2 + e);
}

TEST_CASE("arith: bounds") {
  Interval b = bounds_of(i);
  CHECK(b.lo == 0);
  CHECK_FALSE(b.hi.has_value());
  ArithExpr k = ArithExpr::var("k", -2, 5);
  b = bounds_of(2 * k + 1);
  CHECK(b.lo == -3);
  CHECK(b.hi == 11);
  b = bounds_of(k % 3);
  CHECK(b.lo == 0);
  CHECK(b.hi == 2);
  b = bounds_of(k / 2);
  CHECK(b.lo == -1);
  CHECK(b.hi == 2);
  b = bounds_of(N);
  CHECK(b.lo == 1);
  CHECK_FALSE(b.hi.has_value());
}

TEST_CASE("arith: min, max, select, and") {
  CHECK_SAME(min(x, x), x);
  CHECK_SAME(min(x, y), min(y, x));
  CHECK_SAME(max(x + 1, x + 2), x + 2);
  CHECK_SAME(min(x, min(x, y)), min(x, y));
  CHECK_SAME(min(x + 1, y + 1), min(x, y) + 1);
  CHECK_SAME(max(x + N * 2, y + N * 2 - 3), max(x, y - 3) + N * 2);
  CHECK_SAME(select(1, x, y), x);
  CHECK_SAME(select(0, x, y), y);
  CHECK_SAME(select(lt(x, y), N, N), N);
  CHECK_SAME(logical_and(1, lt(x, y)), lt(x, y));
  CHECK_SAME(logical_and(lt(x, y), 0), 0);
  CHECK_SAME(logical_and(lt(x, y), lt(x, y)), lt(x, y));
  CHECK_SAME(eq(x, y), eq(y, x));
  CHECK_SAME(eq(x + 1, x + 1), 1);
  CHECK_SAME(eq(x + 1, x), 0);
  // Comparisons are balanced: positive terms left, negated negative terms right.
  CHECK_SAME(lt(i, M - 1), lt(i + 1, M));
  CHECK_SAME(le(x - y, 3), le(x, y + 3));
  CHECK_SAME(eq(x - 2, y), eq(y + 2, x));
  CHECK(lt(x - 1, N).to_string() == "x < N + 1");
  CHECK(le(-x, 3).to_string() == "0 <= x + 3");
}

TEST_CASE("arith: substitute, variables, evaluate") {
  ArithExpr e = i * M + j;
  CHECK(e.variables() == std::vector<std::string>{"M", "i", "j"});
  CHECK_SAME(e.substitute({{"M", 8}}), i * 8 + j);
  CHECK(e.evaluate({{"M", 8}, {"i", 2}, {"j", 3}}) == 19);
  // Substituting N also rewrites the range of i, so i % 16 then simplifies.
  ArithExpr f = (i % 16).substitute({{"N", 16}});
  CHECK(f.kind() == ArithKind::Var);
  CHECK(f.hi()->value() == 15);
  CHECK_SAME((x / 4).substitute({{"x", 4 * y + 1}}), y);
  CHECK(ArithExpr().value() == 0);
  CHECK(N.name() == "N");
  CHECK(N.lo()->value() == 1);
  CHECK_FALSE(N.hi().has_value());
}

TEST_CASE("arith: errors") {
  CHECK(error_of([] { (void)(x / 0); }) == "division by zero: x / 0");
  CHECK(error_of([] { (void)(x % (N - N)); }) == "modulo by zero: x % 0");
  CHECK(error_of([] {
          (void)(x + N).evaluate({{"x", 1}});
        }) == "evaluate: variable 'N' has no value (evaluating N + x)");
  CHECK(error_of([] {
          (void)(x / y).evaluate({{"x", 1}, {"y", 0}});
        }) == "evaluate: division by zero in x / y");
  CHECK(error_of([] { (void)(ArithExpr(INT64_MAX) + 1); }).find("overflow") != std::string::npos);
  CHECK(error_of([] { (void)ArithExpr::var("k", 5, 3); }) ==
        "ArithExpr::var: the range [5, 3] of 'k' is empty");
  nlohmann::json bad = {{"op", "pow"}, {"args", nlohmann::json::array()}};
  CHECK(error_of([&] { (void)bad.get<ArithExpr>(); }) ==
        R"(arithmetic JSON: unknown operator 'pow' in {"args":[],"op":"pow"})");
  CHECK_THROWS_AS((void)nlohmann::json(3).get<ArithExpr>(), Error);
}

TEST_CASE("arith: JSON round trip") {
  std::vector<ArithExpr> cases = {ArithExpr(3),
                                  N,
                                  i,
                                  i * M + j - 2,
                                  (i / 4) * 4 + j % 3,
                                  min(i, M),
                                  max(x, y),
                                  select(logical_and(lt(x, N), le(y, 4)), x % N, eq(x, y))};
  for (const ArithExpr& e : cases) {
    nlohmann::json j1 = e;
    ArithExpr back = j1.get<ArithExpr>();
    CHECK_SAME(back, e);
    CHECK(nlohmann::json(back) == j1);
  }
  nlohmann::json jn = N;
  CHECK(jn.dump() == R"({"lo":{"cst":1},"var":"N"})");
  CHECK(nlohmann::json(x + 2).dump() == R"({"args":[{"var":"x"},{"cst":2}],"op":"add"})");
}

// ---- Randomized comparison against naive evaluation --------------------------------------

namespace {

// An unsimplified expression tree, evaluated directly with floor semantics.
struct Naive {
  enum Op { Cst, Var, Add, Sub, Mul, Div, Mod, Min, Max, Lt, Le, Eq, And, Select } op;
  int64_t value = 0;
  std::string var;
  std::vector<Naive> kids;
};

struct DivByZero {};

int64_t naive_floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

int64_t eval(const Naive& n, const std::map<std::string, int64_t>& env) {
  auto k = [&](int idx) { return eval(n.kids[idx], env); };
  switch (n.op) {
  case Naive::Cst:
    return n.value;
  case Naive::Var:
    return env.at(n.var);
  case Naive::Add:
    return k(0) + k(1);
  case Naive::Sub:
    return k(0) - k(1);
  case Naive::Mul:
    return k(0) * k(1);
  case Naive::Div:
  case Naive::Mod: {
    int64_t a = k(0), b = k(1);
    if (b == 0)
      throw DivByZero{};
    int64_t q = naive_floor_div(a, b);
    return n.op == Naive::Div ? q : a - q * b;
  }
  case Naive::Min:
    return std::min(k(0), k(1));
  case Naive::Max:
    return std::max(k(0), k(1));
  case Naive::Lt:
    return k(0) < k(1);
  case Naive::Le:
    return k(0) <= k(1);
  case Naive::Eq:
    return k(0) == k(1);
  case Naive::And: { // eager, like substitution of constants
    int64_t a = k(0), b = k(1);
    return a && b;
  }
  case Naive::Select: {
    int64_t c = k(0), a = k(1), b = k(2);
    return c ? a : b;
  }
  }
  return 0;
}

ArithExpr build(const Naive& n, const std::map<std::string, ArithExpr>& vars) {
  auto k = [&](int idx) { return build(n.kids[idx], vars); };
  switch (n.op) {
  case Naive::Cst:
    return n.value;
  case Naive::Var:
    return vars.at(n.var);
  case Naive::Add:
    return k(0) + k(1);
  case Naive::Sub:
    return k(0) - k(1);
  case Naive::Mul:
    return k(0) * k(1);
  case Naive::Div:
    return k(0) / k(1);
  case Naive::Mod:
    return k(0) % k(1);
  case Naive::Min:
    return min(k(0), k(1));
  case Naive::Max:
    return max(k(0), k(1));
  case Naive::Lt:
    return lt(k(0), k(1));
  case Naive::Le:
    return le(k(0), k(1));
  case Naive::Eq:
    return eq(k(0), k(1));
  case Naive::And:
    return logical_and(k(0), k(1));
  case Naive::Select:
    return select(k(0), k(1), k(2));
  }
  return 0;
}

struct Generator {
  std::mt19937 rng;
  std::vector<std::string> names;

  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); }

  Naive leaf() {
    if (pick(3) == 0)
      return {Naive::Cst, pick(13) - 6, "", {}};
    return {Naive::Var, 0, names[pick(static_cast<int>(names.size()))], {}};
  }
  Naive boolean(int depth) {
    int op = pick(4);
    if (op == 3 && depth > 0)
      return {Naive::And, 0, "", {boolean(depth - 1), boolean(depth - 1)}};
    Naive::Op cmp = op == 0 ? Naive::Lt : (op == 1 ? Naive::Le : Naive::Eq);
    return {cmp, 0, "", {term(depth - 1), term(depth - 1)}};
  }
  Naive term(int depth) {
    if (depth <= 0 || pick(5) == 0)
      return leaf();
    int op = pick(11);
    switch (op) {
    case 0:
    case 1:
      return {Naive::Add, 0, "", {term(depth - 1), term(depth - 1)}};
    case 2:
      return {Naive::Sub, 0, "", {term(depth - 1), term(depth - 1)}};
    case 3:
      return {Naive::Mul, 0, "", {term(depth - 1), term(depth - 1)}};
    case 4:
    case 5: {
      // Mostly small positive constant or variable divisors, sometimes anything.
      Naive d = pick(3) == 0 ? term(depth - 1)
                             : (pick(2) ? Naive{Naive::Cst, 1 + pick(6), "", {}} : leaf());
      return {op == 4 ? Naive::Div : Naive::Mod, 0, "", {term(depth - 1), d}};
    }
    case 6:
      return {Naive::Min, 0, "", {term(depth - 1), term(depth - 1)}};
    case 7:
      return {Naive::Max, 0, "", {term(depth - 1), term(depth - 1)}};
    case 8:
      return {Naive::Select, 0, "", {boolean(depth - 1), term(depth - 1), term(depth - 1)}};
    case 9:
      return boolean(depth);
    default:
      return {Naive::Mul, 0, "", {Naive{Naive::Cst, pick(9) - 4, "", {}}, term(depth - 1)}};
    }
  }
};

} // namespace

TEST_CASE("arith: random expressions agree with naive evaluation") {
  // n in [1, 4]; i in [0, n - 1] and j in [i - 2, n + 1] (symbolic ranges); a in [-3, 4];
  // b in [0, 5]; u unbounded.
  ArithExpr n = ArithExpr::var("n", 1, 4);
  ArithExpr i = ArithExpr::var("i", 0, n - 1);
  std::map<std::string, ArithExpr> vars = {{"n", n},
                                           {"i", i},
                                           {"j", ArithExpr::var("j", i - 2, n + 1)},
                                           {"a", ArithExpr::var("a", -3, 4)},
                                           {"b", ArithExpr::var("b", 0, 5)},
                                           {"u", ArithExpr::var("u")}};
  Generator gen{std::mt19937(12345), {"n", "i", "j", "a", "b", "u"}};
  int checked = 0, trees = 0, proven = 0;
  for (int t = 0; t < 600; ++t) {
    Naive tree = gen.term(4);
    ArithExpr e;
    try {
      e = build(tree, vars);
    } catch (const Error&) {
      continue; // division by a constant zero
    }
    ++trees;
    // Prover claims must hold on every assignment below.
    Truth sign = prove_nonneg(e), div3 = prove_divisible(e, 3);
    Interval range = bounds_of(e);
    proven += (sign != Truth::Unknown) + (div3 != Truth::Unknown);
    for (int s = 0; s < 12; ++s) {
      int64_t nv = 1 + gen.pick(4);
      int64_t iv = gen.pick(static_cast<int>(nv));
      std::map<std::string, int64_t> env = {{"n", nv},
                                            {"i", iv},
                                            {"j", iv - 2 + gen.pick(static_cast<int>(nv + 4 - iv))},
                                            {"a", gen.pick(8) - 3},
                                            {"b", gen.pick(6)},
                                            {"u", gen.pick(21) - 10}};
      int64_t expected;
      try {
        expected = eval(tree, env);
      } catch (const DivByZero&) {
        continue;
      }
      int64_t got = e.evaluate(env);
      // Substituting values first folds everything to the same constant.
      std::map<std::string, ArithExpr> values;
      for (const auto& [name, v] : env)
        values.emplace(name, ArithExpr(v));
      ArithExpr folded = e.substitute(values);
      INFO("expression: ", e.to_string());
      INFO("a=", env["a"], " b=", env["b"], " i=", env["i"], " j=", env["j"], " n=", env["n"],
           " u=", env["u"]);
      REQUIRE(got == expected);
      REQUIRE(folded.is_constant());
      REQUIRE(folded.value() == expected);
      if (sign != Truth::Unknown)
        REQUIRE((expected >= 0) == (sign == Truth::Yes));
      if (div3 != Truth::Unknown)
        REQUIRE((expected % 3 == 0) == (div3 == Truth::Yes));
      REQUIRE((!range.lo || *range.lo <= expected));
      REQUIRE((!range.hi || expected <= *range.hi));
      ++checked;
    }
    // JSON round trip and canonical re-simplification keep the expression.
    nlohmann::json js = e;
    CHECK_SAME(js.get<ArithExpr>(), e);
  }
  CHECK(proven > 300);
  CHECK(trees > 400);
  CHECK(checked > 3000);
}

TEST_CASE("arith: canonical form does not depend on construction order") {
  ArithExpr n = ArithExpr::var("n", 1, 4);
  std::map<std::string, ArithExpr> vars = {{"n", n},
                                           {"i", ArithExpr::var("i", 0, n - 1)},
                                           {"a", ArithExpr::var("a", -3, 4)},
                                           {"b", ArithExpr::var("b", 0, 5)}};
  Generator gen{std::mt19937(777), {"n", "i", "a", "b"}};
  for (int t = 0; t < 200; ++t) {
    std::vector<ArithExpr> parts;
    for (int k = 0; k < 4; ++k) {
      try {
        parts.push_back(build(gen.term(2), vars));
      } catch (const Error&) {
        parts.push_back(k);
      }
    }
    std::vector<std::size_t> order = {0, 1, 2, 3}, order3 = {0, 1, 2};
    std::shuffle(order.begin(), order.end(), gen.rng);
    std::shuffle(order3.begin(), order3.end(), gen.rng);
    ArithExpr sum1 = 0, sum2 = 0, prod1 = 1, prod2 = 1;
    for (std::size_t k = 0; k < 4; ++k) {
      sum1 = sum1 + parts[k];
      sum2 = parts[order[k]] + sum2;
    }
    for (std::size_t k = 0; k < 3; ++k) {
      prod1 = prod1 * parts[k];
      prod2 = parts[order3[k]] * prod2;
    }
    CHECK_SAME(sum1, sum2);
    CHECK_SAME(prod1, prod2);
    CHECK(sum1.to_string() == sum2.to_string());
    CHECK_SAME(min(parts[0], parts[1]), min(parts[1], parts[0]));
    CHECK_SAME(max(parts[2], parts[3]), max(parts[3], parts[2]));
    CHECK_SAME(eq(parts[0], parts[3]), eq(parts[3], parts[0]));
  }
}
