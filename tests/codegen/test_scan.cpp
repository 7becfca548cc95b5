// The Scan primitive: its type rule, interpreter semantics, printing, JSON, and kernels
// (one work-item per line, a sequential loop) against the interpreter and, for the Thomas
// algorithm, against a dense Gaussian elimination.
#include <doctest/doctest.h>

#include <cmath>

#include "core/Json.h"
#include "dsl/Dsl.h"
#include "dsl/Tridiagonal.h"
#include "rewrite/Lower.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using tessera::testing::check_kernel;
using tessera::testing::random_f32;
using tessera::testing::random_values;

namespace {

auto running = user_fun("running", {"state", "x"}, [](auto s, auto x) { return 0.5 * s + x; });

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

// m systems of n rows: lower, diagonal, upper, rhs as [[f32]_n]_m inputs.
Expr batched_thomas(int64_t m, int64_t n) {
  Type t = array_of(f32(), {m, n});
  Val a = input("lower", t), b = input("diagonal", t), c = input("upper", t), d = input("rhs", t);
  Fun solve([](Val line) {
    return thomas_solve(
        zip({line.get(0), line.get(1), line.get(2), line.get(3)}),
        [](Val e) {
          return TridiagonalRow{e.get(0), e.get(1), e.get(2), e.get(3)};
        },
        ScalarKind::F32);
  });
  return program({a, b, c, d}, zip_nd(1, {a, b, c, d}) | map(solve));
}

} // namespace

TEST_CASE("Scan and ScanBackward: the recurrence in both directions, type rule, print, JSON") {
  Val x = input("x", Type::array(f32(), 5));
  Expr forward = program({x}, x | scan(running, 1.0f));
  Expr backward = program({x}, x | scan_backward(running, 1.0f));
  std::vector<double> v{0.5, -1, 2, 0.25, 3};
  Data in = testing::f32_array(v);
  std::vector<double> f = evaluate(forward, {in}).flatten(), r = evaluate(backward, {in}).flatten();
  double s = 1, t = 1;
  for (std::size_t i = 0; i < v.size(); ++i) {
    s = static_cast<float>(static_cast<float>(0.5 * s) + v[i]);
    CHECK(f[i] == doctest::Approx(s));
    std::size_t j = v.size() - 1 - i;
    t = static_cast<float>(static_cast<float>(0.5 * t) + v[j]);
    CHECK(r[j] == doctest::Approx(t));
  }
  CHECK(print(forward).find("Scan(running, 1") != std::string::npos);
  CHECK(print(backward).find("ScanBackward(running, 1") != std::string::npos);
  for (const Expr& p : {forward, backward}) {
    Expr back = load_expr(save_expr(p));
    CHECK(structurally_equal(back, p));
  }
  CHECK_FALSE(structurally_equal(forward, backward));
  // A function whose result is not the state's type is refused with both types named.
  auto to_int = user_fun("toInt", [](auto s, auto x) { return cast(ScalarKind::I32, s + x); });
  CHECK_THROWS_WITH_AS(x | scan(to_int, 0.0f), doctest::Contains("the type of the initial state"),
                       Error);
}

TEST_CASE("a Scan of each line runs as one work-item per line, in both directions") {
  const int64_t m = 6, n = 37;
  Val x = input("x", array_of(f32(), {m, n}));
  for (bool backward : {false, true}) {
    CAPTURE(backward);
    Fun line_scan = backward ? scan_backward(running, 0.25f) : scan(running, 0.25f);
    Expr p = program({x}, x | map(line_scan));
    auto kernel = check_kernel(rewrite::lower_default(p), {random_f32({m, n}, 7)});
    CHECK(kernel.source.find("state") != std::string::npos);
  }
  // Lines along the outer dimension: the scan over the transposed grid, written back transposed.
  Expr columns = program({x}, x | transpose() | map(scan(running, 0.0f)) | transpose());
  check_kernel(rewrite::lower_default(columns), {random_f32({m, n}, 8)});
}

TEST_CASE("the Thomas algorithm from scans matches a dense solve, interpreted and on PoCL") {
  const int64_t m = 5, n = 33;
  std::vector<double> a = random_values(m * n, 11), b = random_values(m * n, 12),
                      c = random_values(m * n, 13), d = random_values(m * n, 14);
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] = 2.5 + b[i]; // diagonally dominant: |b| >= 1.5 > |a| + |c|
  auto data = [&](const std::vector<double>& v) {
    return Data::from_flat(ScalarKind::F32, {m, n}, v);
  };
  std::vector<Data> inputs{data(a), data(b), data(c), data(d)};
  Expr p = batched_thomas(m, n);
  std::vector<double> interpreted = evaluate(p, inputs).flatten();
  check_kernel(rewrite::lower_default(p), inputs, {}, 1e-5);
  for (int64_t line = 0; line < m; ++line) {
    auto part = [&](const std::vector<double>& v) {
      std::vector<double> r(v.begin() + line * n, v.begin() + (line + 1) * n);
      // The values the f32 kernel saw.
      for (double& x : r)
        x = static_cast<float>(x);
      return r;
    };
    std::vector<double> x = dense_solve(part(a), part(b), part(c), part(d));
    for (int64_t i = 0; i < n; ++i)
      CHECK(interpreted[line * n + i] == doctest::Approx(x[i]).epsilon(1e-4));
  }
}
