// Compass-storage 9-point operators (multigrid/Compass.h) against plain loops on random
// coefficients and random ghost rings: through the interpreter and as kernels on the test device.
#include <doctest/doctest.h>

#include <cmath>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "codegen/Program.h"
#include "compile/Execute.h"
#include "core/Error.h"
#include "multigrid/Compass.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

using Grid = std::vector<double>; // row-major, with or without the ring

// A ring grid of interior side n: random values (shifted), rounded to the kind.
struct Ring {
  int64_t n;
  Grid v;
  double operator()(int64_t row, int64_t column) const { return v[row * (n + 2) + column]; }
};
Ring random_ring(int64_t n, uint32_t seed, double shift, ScalarKind kind) {
  Grid v = testing::random_values(static_cast<std::size_t>((n + 2) * (n + 2)), seed);
  for (auto& x : v)
    x = kind == ScalarKind::F32 ? static_cast<float>(shift + x) : shift + x;
  return {n, v};
}
Data ring_data(const Ring& r, ScalarKind kind) {
  return Data::from_flat(kind, {r.n + 2, r.n + 2}, r.v);
}

// The stencil of interior point (j, i), ring coordinates J = j + 1, I = i + 1: O, then the
// couplings with the neighbour offsets they reach (written out, independently of Compass.cpp).
struct Op {
  const Ring &O, &W, &S, &SW, &NW;
  std::vector<std::pair<double, std::pair<int, int>>> couplings(int64_t J, int64_t I) const {
    return {{W(J, I), {0, -1}},    {W(J, I + 1), {0, 1}},      {S(J, I), {-1, 0}},
            {S(J + 1, I), {1, 0}}, {SW(J, I), {-1, -1}},       {SW(J + 1, I + 1), {1, 1}},
            {NW(J, I), {1, -1}},   {NW(J - 1, I + 1), {-1, 1}}};
  }
};

double max_relative_difference(const Grid& a, const Grid& b) {
  REQUIRE(a.size() == b.size());
  double diff = 0, scale = 1e-30;
  for (std::size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return diff / scale;
}

// The interpreter and the default lowering's kernels (one or more launches) against `expected`.
void check(const Expr& program, const std::vector<Data>& inputs, const Grid& expected,
           ScalarKind kind) {
  const double tolerance = kind == ScalarKind::F64 ? 1e-12 : 1e-5;
  bool nonzero = false;
  for (double x : expected)
    nonzero |= x != 0;
  REQUIRE(nonzero);
  CHECK(max_relative_difference(evaluate(program, inputs).flatten(), expected) <= tolerance);
  auto kernels = codegen::generate_program(rewrite::lower_default(program));
  auto run = explore::execute(testing::multigrid_session(), kernels, inputs);
  INFO(kernels.describe());
  CHECK(max_relative_difference(run.output.flatten(), expected) <= tolerance);
}

// 1-D interpolation weights of fine interior index f from the coarse ring indices.
std::vector<std::pair<int64_t, double>> linear_weights(int64_t f) {
  if (f % 2 == 1)
    return {{(f - 1) / 2 + 1, 1.0}};
  return {{f / 2, 0.5}, {f / 2 + 1, 0.5}};
}

} // namespace

TEST_CASE("compass-storage residual, restriction and both interpolations match loops") {
  for (ScalarKind kind : {ScalarKind::F64, ScalarKind::F32}) {
    CAPTURE(to_string(kind));
    const int64_t nc = 3, nf = 7;
    Level coarse{2, nc, kind, Centring::Vertex}, fine{2, nf, kind, Centring::Vertex};
    Ring O = random_ring(nf, 61, 8.0, kind), W = random_ring(nf, 62, 1.0, kind),
         S = random_ring(nf, 63, 1.0, kind), SW = random_ring(nf, 64, 0.5, kind),
         NW = random_ring(nf, 65, 0.5, kind);
    Op op{O, W, S, SW, NW};
    std::vector<Data> coefficients;
    for (const Ring* r : {&O, &W, &S, &SW, &NW})
      coefficients.push_back(ring_data(*r, kind));

    // r = f - A u on the interior.
    Ring u = random_ring(nf, 66, 0.0, kind), f = random_ring(nf, 67, 0.0, kind);
    Grid r;
    for (int64_t J = 1; J <= nf; ++J)
      for (int64_t I = 1; I <= nf; ++I) {
        double au = O(J, I) * u(J, I);
        for (const auto& [c, to] : op.couplings(J, I))
          au -= c * u(J + to.first, I + to.second);
        r.push_back(f(J, I) - au);
      }
    std::vector<Data> in{ring_data(u, kind), ring_data(f, kind)};
    in.insert(in.end(), coefficients.begin(), coefficients.end());
    check(compass_residual(fine), in, r, kind);

    // Full weighting around fine 2I+1 (ring 2I+2).
    Grid restricted;
    for (int64_t J = 0; J < nc; ++J)
      for (int64_t I = 0; I < nc; ++I) {
        double sum = 0;
        for (int a = -1; a <= 1; ++a)
          for (int b = -1; b <= 1; ++b)
            sum += (a == 0 ? 0.5 : 0.25) * (b == 0 ? 0.5 : 0.25) * u(2 * J + 2 + a, 2 * I + 2 + b);
        restricted.push_back(sum);
      }
    check(compass_restrict_full_weighting(fine), {ring_data(u, kind)}, restricted, kind);

    // Bilinear interpolation from the coarse ring grid.
    Ring e = random_ring(nc, 68, 0.0, kind);
    Grid bilinear;
    for (int64_t j = 0; j < nf; ++j)
      for (int64_t i = 0; i < nf; ++i) {
        double sum = 0;
        for (auto [row, wr] : linear_weights(j))
          for (auto [column, wc] : linear_weights(i))
            sum += wr * wc * e(row, column);
        bilinear.push_back(sum);
      }
    check(compass_prolong_bilinear(coarse), {ring_data(e, kind)}, bilinear, kind);

    // Operator-dependent interpolation: edges first, then the cell centres from them.
    Grid first(static_cast<std::size_t>(nf * nf), 0.0);
    auto coarse_value = [&](int64_t fj, int64_t fi) { // a fine index pair on coarse points
      return e((fj - 1) / 2 + 1, (fi - 1) / 2 + 1);
    };
    for (int64_t j = 0; j < nf; ++j)
      for (int64_t i = 0; i < nf; ++i) {
        const int64_t J = j + 1, I = i + 1;
        auto c = op.couplings(J, I); // W E S N SW NE NW SE
        double& out = first[static_cast<std::size_t>(j * nf + i)];
        if (j % 2 == 1 && i % 2 == 1)
          out = coarse_value(j, i);
        else if (j % 2 == 1) // on a coarse row: west and east coarse points
          out = ((c[0].first + c[4].first + c[6].first) * e((j - 1) / 2 + 1, i / 2) +
                 (c[1].first + c[5].first + c[7].first) * e((j - 1) / 2 + 1, i / 2 + 1)) /
                (O(J, I) - c[2].first - c[3].first);
        else if (i % 2 == 1) // on a coarse column: south and north coarse points
          out = ((c[2].first + c[4].first + c[7].first) * e(j / 2, (i - 1) / 2 + 1) +
                 (c[3].first + c[6].first + c[5].first) * e(j / 2 + 1, (i - 1) / 2 + 1)) /
                (O(J, I) - c[0].first - c[1].first);
      }
    Grid interpolated = first;
    for (int64_t j = 0; j < nf; j += 2)
      for (int64_t i = 0; i < nf; i += 2) {
        double sum = 0;
        for (const auto& [c, to] : op.couplings(j + 1, i + 1)) {
          int64_t q = j + to.first, p = i + to.second;
          if (q >= 0 && q < nf && p >= 0 && p < nf)
            sum += c * first[static_cast<std::size_t>(q * nf + p)];
        }
        interpolated[static_cast<std::size_t>(j * nf + i)] = sum / O(j + 1, i + 1);
      }
    std::vector<Data> prolong_in{ring_data(e, kind)};
    prolong_in.insert(prolong_in.end(), coefficients.begin(), coefficients.end());
    check(compass_prolong_operator(coarse), prolong_in, interpolated, kind);
  }
}

TEST_CASE("compass-storage operators refuse grids they are not defined on") {
  CHECK_THROWS_WITH_AS(compass_residual(Level{3, 7, ScalarKind::F64, Centring::Vertex}),
                       doctest::Contains("2-D and vertex-centred"), Error);
  CHECK_THROWS_WITH_AS(compass_prolong_operator(Level{2, 4, ScalarKind::F64, Centring::Cell}),
                       doctest::Contains("2-D and vertex-centred"), Error);
  CHECK_THROWS_AS(compass_restrict_full_weighting(Level{2, 8, ScalarKind::F64, Centring::Vertex}),
                  Error);
}
