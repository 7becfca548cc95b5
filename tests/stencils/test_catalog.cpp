// The catalog (stencils/Catalog.h): every entry run by the interpreter on random data at two
// sizes (not all powers of two, not square) against plain C++ loops written here from the
// entries' definitions, and lowered by rewrite::lower_default to a kernel that builds on PoCL
// and matches the interpreter.
//
// Floating point: the loops perform the same f32 operations in the same order as the entries'
// user functions and reductions (the interpreter rounds every f32 operation to f32, like C++
// float arithmetic), so results must be equal exactly; only residual3d and gsrb3d are computed
// here in double and compared with a relative tolerance of 1e-5 of the magnitude of their terms
// (see `Expected`). Life is exact (i32).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "stencils/Catalog.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using std::int64_t;
using stencils::catalog;
using stencils::find_stencil;

namespace {

using Shape = std::vector<int64_t>;

Shape shape_of(const Data& d) {
  Shape s;
  for (const Data* level = &d; level->is_array(); level = &(*level)[0])
    s.push_back(static_cast<int64_t>(level->size()));
  return s;
}

std::string show(const Shape& s) {
  std::string text;
  for (int64_t n : s)
    text += (text.empty() ? "" : "x") + std::to_string(n);
  return text;
}

std::vector<ArithExpr> extents_of(const Shape& s) {
  return std::vector<ArithExpr>(s.begin(), s.end());
}

// A row-major grid whose reads outside it are clamped to the edge, or 0 when `zero_outside`.
struct LoopGrid {
  Shape shape;
  std::vector<float> v;
  bool zero_outside = false;

  explicit LoopGrid(const Data& d, bool zero_outside = false)
      : shape(shape_of(d)), zero_outside(zero_outside) {
    for (double x : d.flatten())
      v.push_back(static_cast<float>(x));
  }
  int64_t n(int d) const { return shape[d]; }
  // Row-major position of a point (clamped); -1 outside with zero_outside.
  int64_t index(std::initializer_list<int64_t> point) const {
    int64_t flat = 0;
    int d = 0;
    for (int64_t i : point) {
      if (zero_outside && (i < 0 || i >= shape[d]))
        return -1;
      i = i < 0 ? 0 : (i >= shape[d] ? shape[d] - 1 : i);
      flat = flat * shape[d++] + i;
    }
    return flat;
  }
  float at(std::initializer_list<int64_t> point) const {
    int64_t i = index(point);
    return i < 0 ? 0.0f : v[i];
  }
  float operator()(int64_t i) const { return at({i}); }
  float operator()(int64_t i, int64_t j) const { return at({i, j}); }
  float operator()(int64_t i, int64_t j, int64_t k) const { return at({i, j, k}); }
};

// Expected values in row-major order; `scales` (only for the approximate comparisons) holds the
// magnitude of each value's terms: |got - value| <= 1e-5 * max(|value|, scale).
struct Expected {
  std::vector<double> values;
  std::vector<double> scales;
};

// Calls f(i, j, k) at every point of a 1-, 2- or 3-D index space in row-major order (unused
// indices are 0).
template <class F> void for_each_point(const Shape& s, F f) {
  const int64_t nj = s.size() > 1 ? s[1] : 1, nk = s.size() > 2 ? s[2] : 1;
  for (int64_t i = 0; i < s[0]; ++i)
    for (int64_t j = 0; j < nj; ++j)
      for (int64_t k = 0; k < nk; ++k)
        f(i, j, k);
}

// The values of f at every point, compared exactly.
template <class F> Expected each(const Shape& s, F f) {
  Expected out;
  for_each_point(s, [&](int64_t i, int64_t j, int64_t k) { out.values.push_back(f(i, j, k)); });
  return out;
}

// ---- Plain-loop references, one per entry ----

Expected j1d3pt(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each(x.shape,
              [&](int64_t i, int64_t, int64_t) { return (x(i - 1) + x(i) + x(i + 1)) / 3.0f; });
}

Expected j1d7pt(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each(x.shape, [&](int64_t i, int64_t, int64_t) {
    float sum = 0.0f;
    for (int64_t d = -3; d <= 3; ++d)
      sum += x(i + d);
    return sum / 7.0f;
  });
}

Expected j2d5pt(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each(x.shape, [&](int64_t i, int64_t j, int64_t) {
    return (5.0f * x(i - 1, j) + 12.0f * x(i, j - 1) + 15.0f * x(i, j) + 5.0f * x(i + 1, j) +
            12.0f * x(i, j + 1)) /
           118.0f;
  });
}

// sum over the box of w[a][b] * x[i+a-r][j+b-r], row-major, left to right.
template <int Side>
float box2d(const LoopGrid& x, int64_t i, int64_t j, const float (&w)[Side][Side]) {
  const int r = Side / 2;
  float sum = w[0][0] * x(i - r, j - r);
  for (int a = 0; a < Side; ++a)
    for (int b = 0; b < Side; ++b)
      if (a + b > 0)
        sum = sum + w[a][b] * x(i + a - r, j + b - r);
  return sum;
}

Expected j2d9pt(const std::vector<LoopGrid>& in) {
  const float w[3][3] = {{7, 5, 9}, {12, 15, 12}, {9, 5, 7}};
  return each(in[0].shape,
              [&](int64_t i, int64_t j, int64_t) { return box2d(in[0], i, j, w) / 118.0f; });
}

Expected gaussian(const std::vector<LoopGrid>& in) {
  const float w[5][5] = {
      {2, 4, 5, 4, 2}, {4, 9, 12, 9, 4}, {5, 12, 15, 12, 5}, {4, 9, 12, 9, 4}, {2, 4, 5, 4, 2}};
  return each(in[0].shape,
              [&](int64_t i, int64_t j, int64_t) { return box2d(in[0], i, j, w) / 159.0f; });
}

Expected grad2d(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each(x.shape, [&](int64_t i, int64_t j, int64_t) {
    float c = x(i, j), n = x(i - 1, j), s = x(i + 1, j), e = x(i, j + 1), w = x(i, j - 1);
    return c + 1.0f / std::sqrt(0.0001f + (c - n) * (c - n) + (c - s) * (c - s) +
                                (c - e) * (c - e) + (c - w) * (c - w));
  });
}

// 3-D: x(k, j, i); F/B = k-1/k+1, N/S = j-1/j+1, W/E = i-1/i+1.
Expected j3d7pt(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each(x.shape, [&](int64_t k, int64_t j, int64_t i) {
    return 0.161f * x(k, j, i + 1) + 0.162f * x(k, j, i - 1) + 0.163f * x(k, j + 1, i) +
           0.164f * x(k, j - 1, i) + 0.165f * x(k + 1, j, i) + 0.166f * x(k - 1, j, i) -
           1.67f * x(k, j, i);
  });
}

Expected j3d13pt(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each(x.shape, [&](int64_t k, int64_t j, int64_t i) {
    const float c = 0.083f;
    return c * x(k, j, i + 2) + c * x(k, j, i + 1) + c * x(k, j, i - 1) + c * x(k, j, i - 2) +
           c * x(k, j + 2, i) + c * x(k, j + 1, i) + c * x(k, j - 1, i) + c * x(k, j - 2, i) +
           c * x(k + 2, j, i) + c * x(k + 1, j, i) + c * x(k - 1, j, i) + c * x(k - 2, j, i) -
           0.996f * x(k, j, i);
  });
}

Expected j3d27pt(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  const float w[3][3][3] = {{{0.5f, 0.7f, 0.9f}, {1.2f, 1.5f, 1.2f}, {0.9f, 0.7f, 0.5f}},
                            {{0.51f, 0.71f, 0.91f}, {1.21f, 1.51f, 1.21f}, {0.91f, 0.71f, 0.51f}},
                            {{0.52f, 0.72f, 0.92f}, {1.22f, 1.52f, 1.22f}, {0.92f, 0.72f, 0.52f}}};
  return each(x.shape, [&](int64_t k, int64_t j, int64_t i) {
    float sum = w[0][0][0] * x(k - 1, j - 1, i - 1);
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b)
        for (int c = 0; c < 3; ++c)
          if (a + b + c > 0)
            sum = sum + w[a][b][c] * x(k + a - 1, j + b - 1, i + c - 1);
    return sum / 159.0f;
  });
}

Expected heat3d(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each(x.shape, [&](int64_t k, int64_t j, int64_t i) {
    float c = x(k, j, i);
    return 0.125f * (x(k + 1, j, i) - 2.0f * c + x(k - 1, j, i)) +
           0.125f * (x(k, j + 1, i) - 2.0f * c + x(k, j - 1, i)) +
           0.125f * (x(k, j, i + 1) - 2.0f * c + x(k, j, i - 1)) + c;
  });
}

Expected poisson3d(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each(x.shape, [&](int64_t k, int64_t j, int64_t i) {
    float faces = x(k - 1, j, i) + x(k + 1, j, i) + x(k, j - 1, i) + x(k, j + 1, i) +
                  x(k, j, i + 1) + x(k, j, i - 1);
    // FN BN FS BS FW BW NW SW FE BE NE SE
    float edges = x(k - 1, j - 1, i) + x(k + 1, j - 1, i) + x(k - 1, j + 1, i) +
                  x(k + 1, j + 1, i) + x(k - 1, j, i - 1) + x(k + 1, j, i - 1) +
                  x(k, j - 1, i - 1) + x(k, j + 1, i - 1) + x(k - 1, j, i + 1) +
                  x(k + 1, j, i + 1) + x(k, j - 1, i + 1) + x(k, j + 1, i + 1);
    return 2.666f * x(k, j, i) - 0.166f * faces - 0.0833f * edges;
  });
}

// Life: constant-0 boundary (the grid is read with zero_outside).
Expected life(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each(x.shape, [&](int64_t i, int64_t j, int64_t) {
    int alive = 0;
    for (int a = -1; a <= 1; ++a)
      for (int b = -1; b <= 1; ++b)
        if (a != 0 || b != 0)
          alive += static_cast<int>(x(i + a, j + b));
    int cell = static_cast<int>(x(i, j));
    return alive == 3 || (cell == 1 && alive == 2) ? 1.0f : 0.0f;
  });
}

// Restriction of a fine grid n^3: the 2x2x2 block at (2i, 2j, 2k) summed from 0 in row-major
// order, times 1/8.
Expected restrict3d(const std::vector<LoopGrid>& in) {
  const LoopGrid& x = in[0];
  return each({x.n(0) / 2, x.n(1) / 2, x.n(2) / 2}, [&](int64_t i, int64_t j, int64_t k) {
    float sum = 0.0f;
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        for (int c = 0; c < 2; ++c)
          sum += x(2 * i + a, 2 * j + b, 2 * k + c);
    return sum * 0.125f;
  });
}

// Prolongation of a coarse grid n^3 to (2n)^3. Per dimension, fine point m = 2i reads the pair
// (x[i-1], x[i]) with weights (w0, w1) and m = 2i+1 the pair (x[i], x[i+1]) with (w1, w0); the
// 8 products summed from 0 in row-major order of the pairs.
Expected prolong3d(const std::vector<LoopGrid>& in) {
  const LoopGrid &x = in[0], &w = in[1];
  auto src = [](int64_t m, int d) { return m % 2 == 0 ? m / 2 - 1 + d : m / 2 + d; };
  auto weight = [](int64_t m, int d) { return m % 2 == 0 ? d : 1 - d; };
  return each({2 * x.n(0), 2 * x.n(1), 2 * x.n(2)}, [&](int64_t p, int64_t q, int64_t r) {
    float sum = 0.0f;
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        for (int c = 0; c < 2; ++c)
          sum += x(src(p, a), src(q, b), src(r, c)) * w(weight(p, a), weight(q, b), weight(r, c));
    return sum;
  });
}

// The Helmholtz operator a*alpha*phi - b*h2inv*div(beta grad phi) with a = b = h2inv = 1, in
// double, at (k, j, i) of the inputs alpha, beta_i, beta_j, beta_k, phi; `scale` gets the
// magnitude of its terms.
double helmholtz(const std::vector<LoopGrid>& g, int64_t k, int64_t j, int64_t i, double* scale) {
  const LoopGrid &alpha = g[0], &bi = g[1], &bj = g[2], &bk = g[3], &phi = g[4];
  double p = phi(k, j, i);
  double terms[6] = {
      bi(k, j, i + 1) * (phi(k, j, i + 1) - p), -bi(k, j, i) * (p - phi(k, j, i - 1)),
      bj(k, j + 1, i) * (phi(k, j + 1, i) - p), -bj(k, j, i) * (p - phi(k, j - 1, i)),
      bk(k + 1, j, i) * (phi(k + 1, j, i) - p), -bk(k, j, i) * (p - phi(k - 1, j, i))};
  double divergence = 0, magnitude = std::fabs(alpha(k, j, i) * p);
  for (double t : terms) {
    divergence += t;
    magnitude += std::fabs(t);
  }
  *scale = magnitude;
  return alpha(k, j, i) * p - divergence;
}

// Inputs alpha, beta_i, beta_j, beta_k, phi, rhs: rhs - helmholtz.
Expected residual3d(const std::vector<LoopGrid>& g) {
  Expected out;
  for_each_point(g[0].shape, [&](int64_t k, int64_t j, int64_t i) {
    double scale = 0, h = helmholtz(g, k, j, i, &scale), rhs = g[5](k, j, i);
    out.values.push_back(rhs - h);
    out.scales.push_back(scale + std::fabs(rhs));
  });
  return out;
}

// Inputs alpha, beta_i, beta_j, beta_k, phi, lambda, rhs: where (i + j + k) is even,
// phi - lambda * (helmholtz - rhs), elsewhere phi (exactly: scale 0).
Expected gsrb3d(const std::vector<LoopGrid>& g) {
  Expected out;
  for_each_point(g[0].shape, [&](int64_t k, int64_t j, int64_t i) {
    double phi = g[4](k, j, i), lambda = g[5](k, j, i), rhs = g[6](k, j, i), scale = 0;
    if ((i + j + k) % 2 != 0) {
      out.values.push_back(phi);
      out.scales.push_back(0);
    } else {
      double h = helmholtz(g, k, j, i, &scale);
      out.values.push_back(phi - lambda * (h - rhs));
      out.scales.push_back(std::fabs(phi) + std::fabs(lambda) * (scale + std::fabs(rhs)));
    }
  });
  return out;
}

// ---- The table: two sizes and a reference for every entry ----

struct Reference {
  std::vector<Shape> sizes;
  std::function<Expected(const std::vector<LoopGrid>&)> loop;
};

const std::map<std::string, Reference>& references() {
  const Shape s1a{13}, s1b{16}, s2a{5, 7}, s2b{8, 6}, s3a{5, 6, 7}, s3b{8, 5, 6};
  static const std::map<std::string, Reference> table = {
      {"j1d3pt", {{s1a, s1b}, j1d3pt}},
      {"j1d7pt", {{s1a, s1b}, j1d7pt}},
      {"j2d5pt", {{s2a, s2b}, j2d5pt}},
      {"j2d9pt", {{s2a, s2b}, j2d9pt}},
      {"gaussian", {{s2a, s2b}, gaussian}},
      {"grad2d", {{s2a, s2b}, grad2d}},
      {"j3d7pt", {{s3a, s3b}, j3d7pt}},
      {"j3d13pt", {{s3a, s3b}, j3d13pt}},
      {"j3d27pt", {{s3a, s3b}, j3d27pt}},
      {"heat3d", {{s3a, s3b}, heat3d}},
      {"poisson3d", {{s3a, s3b}, poisson3d}},
      {"life", {{s2a, {9, 8}}, life}},
      {"restrict3d", {{{6, 6, 6}, {8, 8, 8}}, restrict3d}},
      {"prolong3d", {{{3, 3, 3}, {5, 5, 5}}, prolong3d}},
      {"residual3d", {{{5, 5, 5}, {6, 6, 6}}, residual3d}},
      {"gsrb3d", {{{5, 5, 5}, {6, 6, 6}}, gsrb3d}},
  };
  return table;
}

// A random grid of 0/1 i32 cells, about a third alive.
Data random_cells(const Shape& shape, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<double> cells(static_cast<std::size_t>(shape[0] * shape[1]));
  for (double& c : cells)
    c = rng() % 3 == 0 ? 1 : 0;
  return Data::from_flat(ScalarKind::I32, shape, cells);
}

// Random inputs for an entry's program: 0/1 cells for Life, values in [-1, 1) otherwise.
std::vector<Data> inputs_for(const std::string& name, const Expr& program, const Shape& shape,
                             uint32_t seed) {
  if (name == "life")
    return {random_cells(shape, seed)};
  return random_inputs(program, seed);
}

// Interpreter against the plain loop for one entry at one size.
void check_entry(const stencils::StencilInfo& info, const Shape& shape, uint32_t seed) {
  CAPTURE(info.name);
  CAPTURE(show(shape));
  Expr p = info.build(extents_of(shape));
  std::vector<Data> inputs = inputs_for(info.name, p, shape, seed);
  std::vector<LoopGrid> grids;
  for (const Data& d : inputs)
    grids.emplace_back(d, info.name == "life");
  std::vector<double> got = evaluate(p, inputs).flatten();
  Expected expected = references().at(info.name).loop(grids);
  REQUIRE(got.size() == expected.values.size());
  bool exact = expected.scales.empty();
  std::size_t wrong = 0, first = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    double e = expected.values[i];
    bool ok = exact ? got[i] == e
                    : std::fabs(got[i] - e) <= 1e-5 * std::fmax(std::fabs(e), expected.scales[i]);
    if (!ok && wrong++ == 0)
      first = i;
  }
  INFO("first difference at flat index " << first << ": interpreter " << got[first] << ", loop "
                                         << expected.values[first]);
  CHECK(wrong == 0);
  // Guard against trivially passing comparisons.
  bool any_nonzero = false;
  for (double v : got)
    any_nonzero |= v != 0;
  CHECK(any_nonzero);
}

void check_entries(const std::vector<std::string>& names) {
  uint32_t seed = 1;
  for (const auto& name : names)
    for (const Shape& shape : references().at(name).sizes)
      check_entry(find_stencil(name), shape, seed++);
}

// lower_default, generate (with the entry's name as the kernel's, as `tessera run` does), run
// on PoCL and compare with the interpreter at the entry's first size. (Both sizes pass too; one
// keeps the cold run, which builds every kernel, short.)
void check_codegen(const std::string& name, double tolerance = 1e-6) {
  const Shape& shape = references().at(name).sizes[0];
  CAPTURE(name);
  CAPTURE(show(shape));
  Expr lowered = rewrite::lower_default(find_stencil(name).build(extents_of(shape)));
  CAPTURE(print(lowered));
  codegen::CodegenOptions options;
  options.kernel_name = name;
  testing::check_kernel(lowered, inputs_for(name, lowered, shape, 100), options, tolerance);
}

// A glider on an 8 x 9 grid: .X. / ..X / XXX with its top-left corner at (row, col).
Data glider(int64_t row, int64_t col) {
  std::vector<double> cells(8 * 9, 0.0);
  for (auto [r, c] :
       std::vector<std::pair<int64_t, int64_t>>{{0, 1}, {1, 2}, {2, 0}, {2, 1}, {2, 2}})
    cells[(row + r) * 9 + col + c] = 1;
  return Data::from_flat(ScalarKind::I32, {8, 9}, cells);
}

} // namespace

TEST_CASE("catalog: names are unique, every entry has a reference here and builds as declared") {
  std::set<std::string> names;
  for (const auto& s : catalog()) {
    CAPTURE(s.name);
    CHECK(names.insert(s.name).second);
    CHECK(!s.description.empty());
    CHECK(s.points > 0);
    CHECK(s.bytes_per_cell > 0);
    REQUIRE(references().count(s.name) == 1);
    Expr p = s.build(extents_of(references().at(s.name).sizes[0]));
    CHECK(static_cast<int>(input_types(p).size()) == s.inputs);
    CHECK(input_types(p)[0].shape().size() == static_cast<std::size_t>(s.dims));
  }
  CHECK(names.size() == references().size());
  for (const char* name : {"j1d3pt", "j1d7pt", "j2d5pt", "j2d9pt", "gaussian", "grad2d", "j3d7pt",
                           "j3d13pt", "j3d27pt", "heat3d", "poisson3d", "life", "restrict3d",
                           "prolong3d", "residual3d", "gsrb3d"})
    CHECK(names.count(name) == 1);
}

TEST_CASE("catalog: find_stencil and bad extents are errors that say what is available") {
  CHECK(find_stencil("heat3d").name == "heat3d");
  try {
    find_stencil("j4d81pt");
    FAIL("find_stencil accepted an unknown name");
  } catch (const Error& e) {
    std::string message = e.what();
    CHECK(message.find("unknown stencil 'j4d81pt'") != std::string::npos);
    for (const auto& s : catalog())
      CHECK(message.find(s.name) != std::string::npos);
  }
  CHECK_THROWS_WITH_AS(find_stencil("j2d5pt").build({ArithExpr(8)}),
                       "j2d5pt is a 2-D stencil: give 2 extent(s), got 1", Error);
  CHECK_THROWS_WITH_AS(find_stencil("restrict3d").build({7, 7, 7}),
                       "restrict3d needs an even fine grid side, got 7", Error);
  CHECK_THROWS_AS(find_stencil("residual3d").build({5, 5, 6}), Error);
}

TEST_CASE("catalog: every entry type-checks for symbolic sizes") {
  // The thesis's operators take cubic grids: one size variable for all three extents.
  const std::set<std::string> cubic = {"restrict3d", "prolong3d", "residual3d", "gsrb3d"};
  for (const auto& s : catalog()) {
    CAPTURE(s.name);
    std::vector<ArithExpr> extents;
    for (const char* v : {"N", "M", "K"})
      if (static_cast<int>(extents.size()) < s.dims)
        extents.push_back(size(cubic.count(s.name) ? "N" : v));
    CHECK_NOTHROW(infer_type(s.build(extents)));
  }
}

TEST_CASE("catalog: 1-D and 2-D stencils against plain loops") {
  check_entries({"j1d3pt", "j1d7pt", "j2d5pt", "j2d9pt", "gaussian", "grad2d"});
}

TEST_CASE("catalog: 3-D stencils against plain loops") {
  check_entries({"j3d7pt", "j3d13pt", "j3d27pt", "heat3d", "poisson3d"});
}

TEST_CASE("catalog: multigrid operators against plain loops") {
  check_entries({"restrict3d", "prolong3d", "residual3d", "gsrb3d"});
}

TEST_CASE("catalog: Game of Life on random cells and a glider") {
  check_entries({"life"});
  Expr step = find_stencil("life").build({8, 9});
  // A glider moves one cell down and one right every 4 generations.
  Data start = glider(1, 1), moved = glider(2, 2);
  Data state = start;
  for (int generation = 0; generation < 4; ++generation) {
    state = evaluate(step, {state});
    if (generation < 3)
      CHECK(!(state == moved));
  }
  CHECK(state == moved);
  // The same with Iterate(4, step).
  Val x = input("x", array_of(i32(), {8, 9}));
  Expr four = program({x}, x | iterate(4, Fun::of(step)));
  CHECK(evaluate(four, {start}) == moved);
}

TEST_CASE("catalog: lower_default of every 1-D and 2-D entry generates a kernel that matches") {
  for (const char* name : {"j1d3pt", "j1d7pt", "j2d5pt", "j2d9pt", "gaussian", "grad2d", "life"})
    check_codegen(name);
}

TEST_CASE("catalog: lower_default of every 3-D entry generates a kernel that matches") {
  for (const char* name : {"j3d7pt", "j3d13pt", "j3d27pt", "heat3d", "poisson3d"})
    check_codegen(name);
}

TEST_CASE("catalog: lower_default of the multigrid entries generates kernels that match") {
  for (const char* name : {"restrict3d", "prolong3d", "residual3d", "gsrb3d"})
    check_codegen(name, 1e-5);
}

// Library problem (codegen/Emitter.cpp): user functions are named apart from each other and from
// OpenCL's reserved words, but not from the kernel, so a kernel named like one of its user
// functions does not build ("conflicting types for 'jacobi3'"). Before the catalog renamed its
// user functions, `tessera run gaussian` and `tessera run life` failed this way.
TEST_CASE("catalog: a kernel may be named like one of its user functions") {
  Expr lowered = rewrite::lower_default(find_stencil("j1d3pt").build({16}));
  codegen::CodegenOptions options;
  options.kernel_name = "jacobi3"; // j1d3pt's user function
  testing::check_kernel(lowered, random_inputs(lowered, 7), options);
}
