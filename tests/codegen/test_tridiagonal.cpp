// Tridiagonal solves along lines (dsl/Tridiagonal.h): the Thomas algorithm from scans and parallel
// cyclic reduction, high-level and in local memory, written directly or rewritten from Thomas
// (thomas-to-pcr, thomas-to-pcr-local), against a dense Gaussian elimination, through the
// interpreter and as kernels on the test device.
#include <doctest/doctest.h>

#include <cmath>

#include "compile/TridiagonalRules.h"
#include "dsl/Dsl.h"
#include "dsl/Tridiagonal.h"
#include "rewrite/Lower.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using tessera::testing::check_kernel;
using tessera::testing::random_values;

namespace {

// Dense Gaussian elimination with partial pivoting of one tridiagonal system (an independent
// reference for the Thomas algorithm).
std::vector<double> dense_solve(const std::vector<double>& a, const std::vector<double>& b,
                                const std::vector<double>& c, const std::vector<double>& d) {
  const std::size_t n = b.size();
  std::vector<std::vector<double>> m(n, std::vector<double>(n + 1, 0.0));
  for (std::size_t i = 0; i < n; ++i) {
    m[i][i] = b[i];
    if (i > 0)
      m[i][i - 1] = a[i];
    if (i + 1 < n)
      m[i][i + 1] = c[i];
    m[i][n] = d[i];
  }
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < n; ++i)
      if (std::fabs(m[i][k]) > std::fabs(m[p][k]))
        p = i;
    std::swap(m[k], m[p]);
    for (std::size_t i = k + 1; i < n; ++i) {
      double f = m[i][k] / m[k][k];
      for (std::size_t j = k; j <= n; ++j)
        m[i][j] -= f * m[k][j];
    }
  }
  std::vector<double> x(n);
  for (std::size_t k = n; k-- > 0;) {
    double s = m[k][n];
    for (std::size_t j = k + 1; j < n; ++j)
      s -= m[k][j] * x[j];
    x[k] = s / m[k][k];
  }
  return x;
}

enum class Method { Thomas, PcrHighLevel, PcrLocal, RuleHighLevel, RuleLocal };

bool is_local(Method m) {
  return m == Method::PcrLocal || m == Method::RuleLocal;
}

// The one program that the rule `name` makes of the Thomas program.
Expr rewritten_thomas(const Expr& thomas, const std::string& name) {
  for (const auto& rule : explore::tridiagonal_rules())
    if (rule.name == name) {
      auto rewritten = rewrite::rewrites_everywhere(thomas, rule);
      REQUIRE(rewritten.size() == 1);
      return rewritten.front();
    }
  FAIL("no rule " << name);
  return thomas;
}

// m systems of n rows: lower, diagonal, upper, rhs as [[f32]_n]_m inputs.
Expr batched_solve(int64_t m, int64_t n, Method method) {
  if (method == Method::RuleHighLevel || method == Method::RuleLocal) {
    Expr rewritten =
        rewritten_thomas(batched_solve(m, n, Method::Thomas),
                         method == Method::RuleLocal ? "thomas-to-pcr-local" : "thomas-to-pcr");
    // The rule builds the same computation as pcr_solve written directly.
    Expr direct =
        batched_solve(m, n, method == Method::RuleLocal ? Method::PcrLocal : Method::PcrHighLevel);
    CHECK(structurally_equal(rewritten, direct));
    return rewritten;
  }
  Type t = array_of(f32(), {m, n});
  Val a = input("lower", t), b = input("diagonal", t), c = input("upper", t), d = input("rhs", t);
  Fun solve([method](Val line) {
    Val rows = zip({line.get(0), line.get(1), line.get(2), line.get(3)});
    TridiagonalRows row = [](Val e) {
      return TridiagonalRow{e.get(0), e.get(1), e.get(2), e.get(3)};
    };
    if (method == Method::Thomas)
      return thomas_solve(rows, row, ScalarKind::F32);
    return pcr_solve(rows, row, ScalarKind::F32,
                     method == Method::PcrLocal ? ReductionPlacement::LocalMemory
                                                : ReductionPlacement::HighLevel);
  });
  // The local-memory form is already mapped: one work-group per line.
  Fun lines = method == Method::PcrLocal ? map_wrg(0, solve) : map(solve);
  return program({a, b, c, d}, zip_nd(1, {a, b, c, d}) | lines);
}

// Random diagonally dominant systems, solved by `method` through the interpreter and on the
// device, against a dense solve of each line.
void check_against_dense(Method method, int64_t m, int64_t n) {
  std::vector<double> a = random_values(m * n, 11), b = random_values(m * n, 12),
                      c = random_values(m * n, 13), d = random_values(m * n, 14);
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] = 2.5 + b[i]; // diagonally dominant: |b| >= 1.5 > |a| + |c|
  auto data = [&](const std::vector<double>& v) {
    return Data::from_flat(ScalarKind::F32, {m, n}, v);
  };
  std::vector<Data> inputs{data(a), data(b), data(c), data(d)};
  Expr p = batched_solve(m, n, method);
  std::vector<double> interpreted = evaluate(p, inputs).flatten();
  auto kernel = check_kernel(is_local(method) ? p : rewrite::lower_default(p), inputs, {}, 1e-5);
  if (is_local(method)) {
    CHECK(kernel.source.find("__local") != std::string::npos);
    CHECK(kernel.source.find("barrier(CLK_LOCAL_MEM_FENCE)") != std::string::npos);
  }
  for (int64_t line = 0; line < m; ++line) {
    auto part = [&](const std::vector<double>& v) {
      std::vector<double> r(v.begin() + line * n, v.begin() + (line + 1) * n);
      for (double& x : r) // the values the f32 kernel saw
        x = static_cast<float>(x);
      return r;
    };
    std::vector<double> x = dense_solve(part(a), part(b), part(c), part(d));
    for (int64_t i = 0; i < n; ++i)
      CHECK(interpreted[line * n + i] == doctest::Approx(x[i]).epsilon(1e-4));
  }
}

} // namespace

TEST_CASE("Thomas and high-level parallel cyclic reduction match a dense solve") {
  check_against_dense(Method::Thomas, 5, 33);
  check_against_dense(Method::PcrHighLevel, 4, 16);
}

// Its name says "local": it also runs under Oclgrind (CMakeLists.txt).
TEST_CASE(
    "parallel cyclic reduction in local memory, a work-group per line, matches a dense solve") {
  check_against_dense(Method::PcrLocal, 3, 20);
}

TEST_CASE("thomas-to-pcr: the rewritten Thomas solve matches a dense solve, high-level and in "
          "local memory, and does not apply to lines of unknown length") {
  check_against_dense(Method::RuleHighLevel, 4, 16);
  check_against_dense(Method::RuleLocal, 3, 20);
  Val a = input("a", array_of(f32(), {ArithExpr::var("N")}));
  TridiagonalRows row = [](Val e) { return TridiagonalRow{e, e, e, e}; };
  Expr open = program({a}, thomas_solve(a, row, ScalarKind::F32));
  for (const auto& rule : explore::tridiagonal_rules())
    CHECK(rewrite::rewrites_everywhere(open, rule).empty());
}
