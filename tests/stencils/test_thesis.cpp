// The thesis's expressions (stencils/Thesis.h) run by the interpreter on random data, against
// plain C++ loops written here from the operators' definitions (clamp-to-edge boundaries,
// boundaries included).
//
// Floating point: where the loop performs the same f32 operations in the same order as the
// expression (restriction, prolongation, the sums of chapter 3, the weighted tiles of Listing
// 4.1) the results must be equal exactly; the residual, the smoother, trilinear interpolation
// and the comparison of Listing 3.4 with 3.3 add in another order (or in double) and are
// compared with a relative tolerance of 1e-5 of the magnitude of the terms (see `near`).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "dsl/Dsl.h"
#include "stencils/Thesis.h"
#include "tests/Helpers.h"

using namespace tessera;
using tessera::testing::f32_array;
using tessera::testing::random_f32;
using tessera::testing::random_values;

namespace {

using Floats = std::vector<float>;
using std::int64_t;

int64_t clamp_index(int64_t i, int64_t n) {
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

// A dense row-major grid of f32 values with clamped reads, mirroring a Data input.
struct HostGrid {
  std::vector<int64_t> shape;
  Floats v;

  static HostGrid random(std::vector<int64_t> shape, uint32_t seed) {
    std::size_t count = 1;
    for (auto n : shape)
      count *= static_cast<std::size_t>(n);
    HostGrid g{shape, {}};
    for (double x : random_values(count, seed))
      g.v.push_back(static_cast<float>(x));
    return g;
  }
  Data data() const {
    return Data::from_flat(ScalarKind::F32, shape, std::vector<double>(v.begin(), v.end()));
  }
  float operator()(int64_t i) const { return v[clamp_index(i, shape[0])]; }
  float operator()(int64_t i, int64_t j) const {
    return v[clamp_index(i, shape[0]) * shape[1] + clamp_index(j, shape[1])];
  }
  float operator()(int64_t i, int64_t j, int64_t k) const {
    return v[(clamp_index(i, shape[0]) * shape[1] + clamp_index(j, shape[1])) * shape[2] +
             clamp_index(k, shape[2])];
  }
};

Floats as_floats(const Data& d) {
  Floats out;
  for (double x : d.flatten())
    out.push_back(static_cast<float>(x));
  return out;
}

// |actual - expected| <= 1e-5 * max(|expected|, scale), where scale is the sum of the
// magnitudes of the terms (the size of the rounding errors of any order of evaluation).
bool near(double actual, double expected, double scale) {
  return std::fabs(actual - expected) <= 1e-5 * std::fmax(std::fabs(expected), scale);
}

// ---- Plain-loop references ----

// Restriction: the mean of each 2^d block, summed in row-major order from 0, then scaled.
Floats restrict_ref(const HostGrid& x) {
  const int dims = static_cast<int>(x.shape.size());
  const int64_t m = x.shape[0] / 2;
  Floats out;
  if (dims == 1) {
    for (int64_t i = 0; i < m; ++i)
      out.push_back((0.0f + x(2 * i) + x(2 * i + 1)) * 0.5f);
  } else if (dims == 2) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < m; ++j) {
        float s = 0.0f;
        for (int a = 0; a < 2; ++a)
          for (int b = 0; b < 2; ++b)
            s += x(2 * i + a, 2 * j + b);
        out.push_back(s * 0.25f);
      }
  } else {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < m; ++j)
        for (int64_t k = 0; k < m; ++k) {
          float s = 0.0f;
          for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
              for (int c = 0; c < 2; ++c)
                s += x(2 * i + a, 2 * j + b, 2 * k + c);
          out.push_back(s * 0.125f);
        }
  }
  return out;
}

// Prolongation along one dimension: output m reads x[src(m, 0)], x[src(m, 1)] with the weights
// w[widx(m, 0)], w[widx(m, 1)]: even m = 2i uses (x[i-1], x[i]) with (w0, w1), odd m = 2i+1
// uses (x[i], x[i+1]) with (w1, w0).
int64_t prolong_src(int64_t m, int d) {
  return m % 2 == 0 ? m / 2 - 1 + d : m / 2 + d;
}
int prolong_widx(int64_t m, int d) {
  return m % 2 == 0 ? d : 1 - d;
}

Floats prolong_1d_ref(const HostGrid& x, const Floats& w) {
  Floats out;
  for (int64_t m = 0; m < 2 * x.shape[0]; ++m) {
    float s = 0.0f;
    for (int d = 0; d < 2; ++d)
      s += x(prolong_src(m, d)) * w[prolong_widx(m, d)];
    out.push_back(s);
  }
  return out;
}

// The 3-D prolongation with a general 2x2x2 weight array, in the expression's order (the
// products of the row-major neighbourhood, summed from 0).
Floats prolong_3d_ref(const HostGrid& x, const Floats& w) {
  const int64_t m = 2 * x.shape[0];
  Floats out;
  for (int64_t p = 0; p < m; ++p)
    for (int64_t q = 0; q < m; ++q)
      for (int64_t r = 0; r < m; ++r) {
        float s = 0.0f;
        for (int a = 0; a < 2; ++a)
          for (int b = 0; b < 2; ++b)
            for (int c = 0; c < 2; ++c) {
              float weight =
                  w[(prolong_widx(p, a) * 2 + prolong_widx(q, b)) * 2 + prolong_widx(r, c)];
              s += x(prolong_src(p, a), prolong_src(q, b), prolong_src(r, c)) * weight;
            }
        out.push_back(s);
      }
  return out;
}

// Trilinear interpolation as three 1-D linear interpolations in a row (in double).
std::vector<double> trilinear_ref(const HostGrid& x) {
  const int64_t n = x.shape[0], m = 2 * n;
  auto lerp_index = [](int64_t fine, int64_t n, int d) {
    return clamp_index(prolong_src(fine, d), n);
  };
  auto weight = [](int64_t fine, int d) { return prolong_widx(fine, d) == 0 ? 0.25 : 0.75; };
  // Along k, then j, then i.
  std::vector<double> a(n * n * m), b(n * m * m), c(m * m * m);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t r = 0; r < m; ++r)
        for (int d = 0; d < 2; ++d)
          a[(i * n + j) * m + r] += weight(r, d) * x(i, j, lerp_index(r, n, d));
  for (int64_t i = 0; i < n; ++i)
    for (int64_t q = 0; q < m; ++q)
      for (int64_t r = 0; r < m; ++r)
        for (int d = 0; d < 2; ++d)
          b[(i * m + q) * m + r] += weight(q, d) * a[(i * n + lerp_index(q, n, d)) * m + r];
  for (int64_t p = 0; p < m; ++p)
    for (int64_t q = 0; q < m; ++q)
      for (int64_t r = 0; r < m; ++r)
        for (int d = 0; d < 2; ++d)
          c[(p * m + q) * m + r] += weight(p, d) * b[(lerp_index(p, n, d) * m + q) * m + r];
  return c;
}

// The Helmholtz operator of Listings 2.6 and 2.9 at (k, j, i), in double, with the magnitude
// of its terms.
struct Helmholtz {
  const HostGrid &alpha, &beta_i, &beta_j, &beta_k, &phi;
  double a, b, h2inv;

  double value(int64_t k, int64_t j, int64_t i, double* scale) const {
    double p = phi(k, j, i);
    double terms[6] = {
        beta_i(k, j, i + 1) * (phi(k, j, i + 1) - p), -beta_i(k, j, i) * (p - phi(k, j, i - 1)),
        beta_j(k, j + 1, i) * (phi(k, j + 1, i) - p), -beta_j(k, j, i) * (p - phi(k, j - 1, i)),
        beta_k(k + 1, j, i) * (phi(k + 1, j, i) - p), -beta_k(k, j, i) * (p - phi(k - 1, j, i))};
    double laplacian = 0, magnitude = 0;
    for (double t : terms) {
      laplacian += t;
      magnitude += std::fabs(t);
    }
    double diagonal = a * alpha(k, j, i) * p;
    *scale = std::fabs(diagonal) + std::fabs(b * h2inv) * magnitude;
    return diagonal - b * h2inv * laplacian;
  }
};

// The clamped 3-point sum, (x[i-1] + x[i]) + x[i+1] after 0.
Floats sum3_ref(const HostGrid& x) {
  Floats out;
  for (int64_t i = 0; i < x.shape[0]; ++i)
    out.push_back(0.0f + x(i - 1) + x(i) + x(i + 1));
  return out;
}

// ---- Running programs ----

Data run(const Expr& program, const std::vector<HostGrid>& inputs) {
  std::vector<Data> data;
  for (const auto& g : inputs)
    data.push_back(g.data());
  return evaluate(program, data);
}

} // namespace

TEST_CASE("Listings 2.1-2.3: restriction in 1, 2 and 3 dimensions") {
  for (int64_t n : {2, 6, 10, 16}) {
    CAPTURE(n);
    HostGrid x = HostGrid::random({n}, 100 + n);
    CHECK(as_floats(run(stencils::restrict_1d(n), {x})) == restrict_ref(x));
  }
  for (int64_t n : {6, 10}) {
    CAPTURE(n);
    HostGrid x = HostGrid::random({n, n}, 200 + n);
    Data out = run(stencils::restrict_2d(n), {x});
    CHECK(out.size() == static_cast<std::size_t>(n / 2));
    CHECK(as_floats(out) == restrict_ref(x));
  }
  for (int64_t n : {4, 6}) {
    CAPTURE(n);
    HostGrid x = HostGrid::random({n, n, n}, 300 + n);
    CHECK(as_floats(run(stencils::restrict_3d(n), {x})) == restrict_ref(x));
  }
  // A symbolic size works the same.
  HostGrid x = HostGrid::random({10}, 400);
  CHECK(as_floats(run(stencils::restrict_1d(size("N")), {x})) == restrict_ref(x));
  HostGrid y = HostGrid::random({6, 6, 6}, 401);
  CHECK(as_floats(run(stencils::restrict_3d(size("N")), {y})) == restrict_ref(y));
}

TEST_CASE("Listing 2.4: 1-D prolongation") {
  const Floats linear = {0.25f, 0.75f};
  for (int64_t n : {1, 2, 5, 7, 8}) {
    CAPTURE(n);
    HostGrid x = HostGrid::random({n}, 500 + n);
    Data out = run(stencils::prolong_1d(n), {x, HostGrid{{2}, linear}});
    REQUIRE(out.size() == static_cast<std::size_t>(2 * n));
    CHECK(as_floats(out) == prolong_1d_ref(x, linear));
    HostGrid w = HostGrid::random({2}, 600 + n);
    CHECK(as_floats(run(stencils::prolong_1d(n), {x, w})) == prolong_1d_ref(x, w.v));
  }
  // Linear interpolation of a ramp: the fine points lie a quarter of a coarse cell from the
  // coarse points; the outermost ones see the clamped edge value.
  HostGrid ramp{{5}, {0, 1, 2, 3, 4}};
  CHECK(as_floats(run(stencils::prolong_1d(5), {ramp, HostGrid{{2}, linear}})) ==
        Floats{0, 0.25f, 0.75f, 1.25f, 1.75f, 2.25f, 2.75f, 3.25f, 3.75f, 4});
  HostGrid y = HostGrid::random({7}, 510);
  CHECK(as_floats(run(stencils::prolong_1d(size("N")), {y, HostGrid{{2}, linear}})) ==
        prolong_1d_ref(y, linear));
}

TEST_CASE("Listing 2.5: 3-D prolongation") {
  for (int64_t n : {3, 5}) {
    CAPTURE(n);
    HostGrid x = HostGrid::random({n, n, n}, 700 + n);
    // General weights: the expression's order of operations, exactly.
    HostGrid w = HostGrid::random({2, 2, 2}, 800 + n);
    Data out = run(stencils::prolong_3d(n), {x, w});
    REQUIRE(out.size() == static_cast<std::size_t>(2 * n));
    REQUIRE(out[0].size() == static_cast<std::size_t>(2 * n));
    CHECK(as_floats(out) == prolong_3d_ref(x, w.v));
    // Outer product of [0.25, 0.75]: trilinear interpolation.
    Floats tri;
    for (float p : {0.25f, 0.75f})
      for (float q : {0.25f, 0.75f})
        for (float r : {0.25f, 0.75f})
          tri.push_back(p * q * r);
    Floats got = as_floats(run(stencils::prolong_3d(n), {x, HostGrid{{2, 2, 2}, tri}}));
    std::vector<double> expected = trilinear_ref(x);
    REQUIRE(got.size() == expected.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      CAPTURE(i);
      CHECK(near(got[i], expected[i], 1.0));
    }
  }
}

TEST_CASE("Listing 2.7: two inputs zipped") {
  for (int64_t n : {1, 5, 7}) {
    CAPTURE(n);
    HostGrid a = HostGrid::random({n}, 900 + n), b = HostGrid::random({n}, 950 + n);
    Floats expected;
    for (int64_t i = 0; i < n; ++i)
      expected.push_back(a(i - 1) + a(i) + a(i + 1) + b(i - 1) + b(i) + b(i + 1));
    CHECK(as_floats(run(stencils::multi_input_1d(n), {a, b})) == expected);
  }
}

namespace {

struct HelmholtzProblem {
  int64_t n;
  HostGrid alpha, beta_i, beta_j, beta_k, phi, lambda, rhs;
  double a = 0.75, b = 0.9, h2inv;

  explicit HelmholtzProblem(int64_t n, uint32_t seed)
      : n(n), alpha(HostGrid::random({n, n, n}, seed)),
        beta_i(HostGrid::random({n, n, n}, seed + 1)),
        beta_j(HostGrid::random({n, n, n}, seed + 2)),
        beta_k(HostGrid::random({n, n, n}, seed + 3)), phi(HostGrid::random({n, n, n}, seed + 4)),
        lambda(HostGrid::random({n, n, n}, seed + 5)), rhs(HostGrid::random({n, n, n}, seed + 6)),
        h2inv(static_cast<double>(n * n)) {}

  Helmholtz op() const { return {alpha, beta_i, beta_j, beta_k, phi, a, b, h2inv}; }
};

// mask[k][j][i] = 1 where (i + j + k + colour) % 2 == 0 (Listing 2.9), else 0.
HostGrid colour_mask(int64_t n, int colour) {
  HostGrid m{{n, n, n}, {}};
  for (int64_t k = 0; k < n; ++k)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t i = 0; i < n; ++i)
        m.v.push_back((i + j + k + colour) % 2 == 0 ? 1.0f : 0.0f);
  return m;
}

} // namespace

TEST_CASE("Listing 2.8: the 3-D residual") {
  for (int64_t n : {4, 5}) {
    CAPTURE(n);
    HelmholtzProblem p(n, static_cast<uint32_t>(1000 + n));
    Data out = run(stencils::residual_3d(n, p.a, p.b, p.h2inv),
                   {p.alpha, p.beta_i, p.beta_j, p.beta_k, p.phi, p.rhs});
    Floats got = as_floats(out);
    REQUIRE(got.size() == static_cast<std::size_t>(n * n * n));
    Helmholtz op = p.op();
    std::size_t idx = 0;
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i, ++idx) {
          CAPTURE(k);
          CAPTURE(j);
          CAPTURE(i);
          double scale = 0;
          double expected = p.rhs(k, j, i) - op.value(k, j, i, &scale);
          CHECK(near(got[idx], expected, scale + std::fabs(p.rhs(k, j, i))));
        }
  }
}

TEST_CASE("Listing 2.10: the 3-D red-black Gauss-Seidel step, with a mask and with Generate") {
  for (int64_t n : {4, 5}) {
    for (int colour : {0, 1}) {
      CAPTURE(n);
      CAPTURE(colour);
      HelmholtzProblem p(n, static_cast<uint32_t>(2000 + 10 * n + colour));
      HostGrid mask = colour_mask(n, colour);
      Floats got =
          as_floats(run(stencils::gsrb_smooth_3d(n, p.a, p.b, p.h2inv),
                        {p.alpha, p.beta_i, p.beta_j, p.beta_k, p.phi, p.lambda, p.rhs, mask}));
      REQUIRE(got.size() == static_cast<std::size_t>(n * n * n));
      Helmholtz op = p.op();
      std::size_t idx = 0;
      int updated = 0;
      for (int64_t k = 0; k < n; ++k)
        for (int64_t j = 0; j < n; ++j)
          for (int64_t i = 0; i < n; ++i, ++idx) {
            CAPTURE(k);
            CAPTURE(j);
            CAPTURE(i);
            float phi = p.phi(k, j, i);
            if ((i + j + k + colour) % 2 != 0) {
              CHECK(got[idx] == phi); // not this colour: phi unchanged, exactly
              continue;
            }
            ++updated;
            double scale = 0;
            double helmholtz = op.value(k, j, i, &scale);
            double lambda = p.lambda(k, j, i), rhs = p.rhs(k, j, i);
            double expected = phi - lambda * (helmholtz - rhs);
            CHECK(near(got[idx], expected,
                       std::fabs(phi) + std::fabs(lambda) * (scale + std::fabs(rhs))));
          }
      CHECK(updated == (n * n * n + (colour == 0 ? 1 : 0)) / 2);

      // Generate computes the same mask: the same f32 operations, so the same results.
      Data generated = run(stencils::gsrb_smooth_3d_generated(n, p.a, p.b, p.h2inv, colour),
                           {p.alpha, p.beta_i, p.beta_j, p.beta_k, p.phi, p.lambda, p.rhs});
      CHECK(as_floats(generated) == got);
    }
  }
}

TEST_CASE("Listing 3.1: tiled 1-D restriction") {
  for (auto [n, tile] :
       std::vector<std::pair<int64_t, int64_t>>{{12, 6}, {20, 4}, {18, 6}, {8, 8}}) {
    CAPTURE(n);
    CAPTURE(tile);
    HostGrid x = HostGrid::random({n}, static_cast<uint32_t>(3000 + n + tile));
    CHECK(as_floats(run(stencils::tiled_restrict_1d(n, tile), {x})) == restrict_ref(x));
  }
}

TEST_CASE("Listing 3.2: overlapped tiling of a 3-point sum") {
  for (auto [n, tile] :
       std::vector<std::pair<int64_t, int64_t>>{{12, 3}, {10, 5}, {7, 7}, {9, 1}}) {
    CAPTURE(n);
    CAPTURE(tile);
    HostGrid x = HostGrid::random({n}, static_cast<uint32_t>(4000 + n + tile));
    CHECK(as_floats(run(stencils::overlapped_tiling_1d(n, tile), {x})) == sum3_ref(x));
  }
}

TEST_CASE("Listings 3.3 and 3.4: overlapped temporal tiling of two 3-point sums") {
  for (int64_t n : {1, 5, 9}) {
    CAPTURE(n);
    HostGrid x = HostGrid::random({n}, static_cast<uint32_t>(5000 + n));
    // The input padded once by 2 with clamp; each output sums the three 3-sums of its 5-window.
    auto p = [&](int64_t i) { return x(i - 2); };
    Floats temporal, optimized;
    for (int64_t i = 0; i < n; ++i) {
      float outer = 0.0f, flat = 0.0f;
      for (int m = 0; m < 3; ++m) {
        float inner = 0.0f;
        for (int e = 0; e < 3; ++e) {
          inner += p(i + m + e);
          flat += p(i + m + e); // Listing 3.4: one reduction over the joined neighbourhoods
        }
        outer += inner;
      }
      temporal.push_back(outer);
      optimized.push_back(flat);
    }
    Floats got = as_floats(run(stencils::temporal_tiling_1d(n), {x}));
    CHECK(got == temporal);
    Floats got_optimized = as_floats(run(stencils::temporal_tiling_1d_optimized(n), {x}));
    CHECK(got_optimized == optimized);
    for (std::size_t i = 0; i < got.size(); ++i)
      CHECK(near(got_optimized[i], got[i], 9.0));

    // Away from the boundary this is two clamped 3-point sums in a row; at the two outermost
    // points it is not (the intermediate sums are not clamped).
    HostGrid once{{n}, sum3_ref(x)};
    Floats twice = sum3_ref(once);
    for (int64_t i = 2; i + 2 < n; ++i)
      CHECK(near(got[i], twice[i], 9.0));
    if (n >= 2)
      CHECK(!near(got[0], twice[0], 9.0));
  }
}

TEST_CASE("Listing 4.1: weighted 2-D restriction in local-memory tiles") {
  for (auto [n, tile] : std::vector<std::pair<int64_t, int64_t>>{{8, 4}, {12, 6}, {6, 2}}) {
    CAPTURE(n);
    CAPTURE(tile);
    HostGrid x = HostGrid::random({n, n}, static_cast<uint32_t>(6000 + n));
    HostGrid w = HostGrid::random({4}, static_cast<uint32_t>(6100 + n));
    Data out = run(stencils::spatial_tiling_2d(n, tile), {x, w});
    // The result keeps the tiled layout [n/tile][n/tile][tile/2][tile/2][1].
    const int64_t tiles = n / tile, half = tile / 2;
    REQUIRE(out.size() == static_cast<std::size_t>(tiles));
    for (int64_t ti = 0; ti < tiles; ++ti)
      for (int64_t tj = 0; tj < tiles; ++tj)
        for (int64_t a = 0; a < half; ++a)
          for (int64_t b = 0; b < half; ++b) {
            float acc = 0.0f;
            for (int d = 0; d < 2; ++d)
              for (int e = 0; e < 2; ++e)
                acc = acc + w.v[2 * d + e] * x(ti * tile + 2 * a + d, tj * tile + 2 * b + e);
            CAPTURE(ti);
            CAPTURE(tj);
            CAPTURE(a);
            CAPTURE(b);
            CHECK(out[ti][tj][a][b][0].number() == acc * 0.25f);
          }
  }
}

TEST_CASE("every listing type-checks for a symbolic size") {
  ArithExpr n = size("N");
  for (const Expr& p :
       {stencils::restrict_2d(n), stencils::prolong_3d(n), stencils::multi_input_1d(n),
        stencils::residual_3d(n, 1, 1, 1), stencils::gsrb_smooth_3d(n, 1, 1, 1),
        stencils::gsrb_smooth_3d_generated(n, 1, 1, 1, 0), stencils::tiled_restrict_1d(n, 8),
        stencils::overlapped_tiling_1d(n, 8), stencils::temporal_tiling_1d(n),
        stencils::temporal_tiling_1d_optimized(n), stencils::spatial_tiling_2d(n, 8)}) {
    CAPTURE(print(p));
    CHECK_NOTHROW(infer_type(p));
  }
}
