#include "peers/Taps.h"

#include <algorithm>
#include <cmath>
#include <random>

#include "core/Data.h"
#include "core/Error.h"
#include "primitives/Interpreter.h"
#include "stencils/Catalog.h"

namespace tessera::peers {

namespace {

int64_t clamp_index(int64_t i, int64_t n) {
  return std::min(std::max<int64_t>(i, 0), n - 1);
}

std::vector<double> run(const Expr& program, const std::vector<int64_t>& shape,
                        const std::vector<double>& values) {
  return evaluate(program, {Data::from_flat(ScalarKind::F32, shape, values)}).flatten();
}

} // namespace

std::array<int64_t, 3> extents3(const std::vector<int64_t>& extents) {
  std::array<int64_t, 3> e{1, 1, 1};
  std::copy(extents.begin(), extents.end(), e.begin() + (3 - extents.size()));
  return e;
}

std::vector<float> apply_taps(const LinearStencil& s, const std::vector<float>& x,
                              const std::array<int64_t, 3>& e) {
  std::vector<float> out(x.size());
  for (int64_t k = 0; k < e[0]; ++k)
    for (int64_t j = 0; j < e[1]; ++j)
      for (int64_t i = 0; i < e[2]; ++i) {
        float sum = s.bias;
        for (const auto& t : s.taps)
          sum +=
              t.weight *
              x[(clamp_index(k + t.offset[0], e[0]) * e[1] + clamp_index(j + t.offset[1], e[1])) *
                    e[2] +
                clamp_index(i + t.offset[2], e[2])];
        out[(k * e[1] + j) * e[2] + i] = sum;
      }
  return out;
}

LinearStencil linear_stencil(const stencils::StencilInfo& info) {
  if (info.inputs != 1)
    user_error(cat(info.name, ": the peers handle single-input stencils, it has ", info.inputs));
  LinearStencil s{info.name, info.dims, info.radius};
  // A grid of 4r+1 per side: the impulse at its centre reaches every output within r of it
  // without any read being clamped.
  const int64_t side = 4 * info.radius + 1, c = 2 * info.radius;
  std::vector<int64_t> shape(static_cast<std::size_t>(info.dims), side);
  Expr program = info.build(std::vector<ArithExpr>(shape.begin(), shape.end()));
  auto e = extents3(shape);
  std::size_t cells = static_cast<std::size_t>(e[0] * e[1] * e[2]);
  auto index = [&](int64_t k, int64_t j, int64_t i) {
    return static_cast<std::size_t>((k * e[1] + j) * e[2] + i);
  };
  const int64_t ck = info.dims == 3 ? c : 0, cj = info.dims >= 2 ? c : 0;
  s.bias =
      static_cast<float>(run(program, shape, std::vector<double>(cells, 0.0))[index(ck, cj, c)]);
  std::vector<double> impulse(cells, 0.0);
  impulse[index(ck, cj, c)] = 1.0;
  auto response = run(program, shape, impulse);
  const int r = info.radius, rk = info.dims == 3 ? r : 0, rj = info.dims >= 2 ? r : 0;
  for (int dk = -rk; dk <= rk; ++dk)
    for (int dj = -rj; dj <= rj; ++dj)
      for (int di = -r; di <= r; ++di) {
        // out[p] reads x[p + o]; with the impulse at c, out[c - o] is o's weight.
        double w = response[index(ck - dk, cj - dj, c - di)] - s.bias;
        if (w != 0)
          s.taps.push_back({{dk, dj, di}, static_cast<float>(w)});
      }
  // The taps must reproduce the interpreter everywhere, boundary included, on random data.
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> x(cells);
  for (auto& v : x)
    v = dist(rng);
  auto expected = run(program, shape, std::vector<double>(x.begin(), x.end()));
  auto got = apply_taps(s, x, e);
  for (std::size_t p = 0; p < cells; ++p)
    if (std::fabs(got[p] - expected[p]) > 1e-5 * std::max(1.0, std::fabs(expected[p])))
      user_error(cat(info.name, ": not a linear stencil with a clamped boundary (its taps give ",
                     got[p], " where the interpreter gives ", expected[p], " at cell ", p, ")"));
  return s;
}

} // namespace tessera::peers
