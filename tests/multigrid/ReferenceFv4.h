// HPGMG-FV's 4th-order operator (operators.fv4.c) as loops over a grid with two ghost layers,
// written the way HPGMG computes it and independently of multigrid/HelmholtzFv4.cpp: the ghosts
// filled first (apply_BCs_v4: the tensor product of the 1-D quartic extrapolations on faces and
// edges), the face coefficients extended beyond the domain (extrapolate_betas), then
// apply_op_ijk, and the diagonal as the operator applied to u_p's indicator (HPGMG's black-box
// D^{-1}). 3-D grids of n >= 4 cells, row-major (z, y, x).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace tessera::testing::fv4 {

using Grid = std::vector<double>;
using Index = std::array<int64_t, 3>;

struct Operator {
  int64_t n;
  double a, b, h, outer_beta;
  const Grid& alpha;
  const std::array<Grid, 3>& beta; // beta[k]: the low face of each cell in dimension k

  int64_t flat(const Index& p) const { return (p[0] * n + p[1]) * n + p[2]; }
  bool inside(int64_t c) const { return c >= 0 && c < n; }

  // The cells and weights that make up coordinate c along one dimension: itself inside, the
  // quartic extrapolation of the four cells nearest the boundary for a ghost.
  std::vector<std::pair<int64_t, double>> along(int64_t c) const {
    static const double near[4] = {-77, 43, -17, 3}, far[4] = {-505, 335, -145, 27};
    if (inside(c))
      return {{c, 1.0}};
    const double* w = (c == -1 || c == n) ? near : far;
    std::vector<std::pair<int64_t, double>> cells;
    for (int m = 0; m < 4; ++m)
      cells.push_back({c < 0 ? m : n - 1 - m, w[m] / 12});
    return cells;
  }

  // u with ghosts (apply_BCs_v4 on faces and edges).
  double u_at(const Grid& u, const Index& p) const {
    double sum = 0;
    for (auto [z, wz] : along(p[0]))
      for (auto [y, wy] : along(p[1]))
        for (auto [x, wx] : along(p[2]))
          sum += wz * wy * wx * u[static_cast<std::size_t>(flat({z, y, x}))];
    return sum;
  }

  // beta_k at face p (p[k] in 0..n, n the outer face), extended one cell beyond the domain along
  // the tangential dimensions (extrapolate_betas: quartic from 5 faces, cubic on 4-cell grids).
  double beta_at(int k, Index p) const {
    if (p[k] == n)
      return outer_beta;
    for (int j = 0; j < 3; ++j) {
      if (j == k || inside(p[j]))
        continue;
      static const std::vector<double> quartic{5, -10, 10, -5, 1}, cubic{4, -6, 4, -1};
      const auto& w = n >= 5 ? quartic : cubic;
      const bool low = p[j] < 0;
      double sum = 0;
      for (std::size_t m = 0; m < w.size(); ++m) {
        Index q = p;
        q[j] = low ? static_cast<int64_t>(m) : n - 1 - static_cast<int64_t>(m);
        sum += w[m] * beta_at(k, q);
      }
      return sum;
    }
    return beta[static_cast<std::size_t>(k)][static_cast<std::size_t>(flat(p))];
  }

  // apply_op_ijk at p.
  double apply(const Grid& u, const Index& p) const {
    auto U = [&](int64_t dz, int64_t dy, int64_t dx) {
      return u_at(u, {p[0] + dz, p[1] + dy, p[2] + dx});
    };
    auto at = [&](int k, std::array<int64_t, 3> o) {
      Index q{p[0] + o[0], p[1] + o[1], p[2] + o[2]};
      return q;
    };
    auto unit = [](int k, int64_t s) {
      std::array<int64_t, 3> o{0, 0, 0};
      o[k] = s;
      return o;
    };
    auto Uo = [&](std::array<int64_t, 3> o) { return U(o[0], o[1], o[2]); };
    auto add = [](std::array<int64_t, 3> x, std::array<int64_t, 3> y) {
      return std::array<int64_t, 3>{x[0] + y[0], x[1] + y[1], x[2] + y[2]};
    };
    const double u0 = U(0, 0, 0);
    double faces = 0, cross = 0;
    for (int k = 0; k < 3; ++k) {
      const auto lo = unit(k, -1), hi = unit(k, 1);
      faces += beta_at(k, at(k, {0, 0, 0})) * (15 * (Uo(lo) - u0) - (Uo(unit(k, -2)) - Uo(hi)));
      faces += beta_at(k, at(k, hi)) * (15 * (Uo(hi) - u0) - (Uo(unit(k, 2)) - Uo(lo)));
      for (int j = 0; j < 3; ++j) {
        if (j == k)
          continue;
        const auto ej = unit(j, 1), mj = unit(j, -1);
        cross += (beta_at(k, at(k, ej)) - beta_at(k, at(k, mj))) *
                 (Uo(add(lo, ej)) - Uo(ej) - Uo(add(lo, mj)) + Uo(mj));
        cross += (beta_at(k, at(k, add(hi, ej))) - beta_at(k, at(k, add(hi, mj)))) *
                 (Uo(add(hi, ej)) - Uo(ej) - Uo(add(hi, mj)) + Uo(mj));
      }
    }
    const double alpha_p = alpha[static_cast<std::size_t>(flat(p))];
    return a * alpha_p * u0 - b / (h * h) * (faces / 12 + 0.25 / 12 * cross);
  }

  double diagonal(const Index& p) const {
    Grid e(static_cast<std::size_t>(n * n * n), 0.0);
    e[static_cast<std::size_t>(flat(p))] = 1;
    return apply(e, p);
  }

  template <class F> Grid each(F f) const {
    Grid out(static_cast<std::size_t>(n * n * n));
    for (int64_t z = 0; z < n; ++z)
      for (int64_t y = 0; y < n; ++y)
        for (int64_t x = 0; x < n; ++x)
          out[static_cast<std::size_t>(flat({z, y, x}))] = f(Index{z, y, x});
    return out;
  }
  Grid residual(const Grid& u, const Grid& f) const {
    return each([&](const Index& p) { return f[std::size_t(flat(p))] - apply(u, p); });
  }
  Grid jacobi(const Grid& u, const Grid& f, double omega) const {
    return each([&](const Index& p) {
      const auto i = static_cast<std::size_t>(flat(p));
      return u[i] + omega * (f[i] - apply(u, p)) / diagonal(p);
    });
  }
  Grid gsrb(const Grid& u, const Grid& f, int colour) const {
    return each([&](const Index& p) {
      const auto i = static_cast<std::size_t>(flat(p));
      if ((p[0] + p[1] + p[2] + colour) % 2 != 0)
        return u[i];
      return u[i] + (f[i] - apply(u, p)) / diagonal(p);
    });
  }
};

// u_fine + interpolation_v4 (order 4) or interpolation_v2 (order 2) of e (nc cells per side):
// per dimension the even child weighs the coarse values at -2..2 by (-3, 22, 128, -22, 3)/128
// (v4) or at -1..1 by (1, 8, -1)/8 (v2), the odd child by the mirror; the coarse ghosts (faces,
// edges and corners) those of apply_BCs_v4 or apply_BCs_v2 (-5/2 x_0 + 1/2 x_1).
inline Grid prolong_hpgmg(const Grid& u_fine, const Grid& e, int64_t nc, int order) {
  static const Grid none;
  static const std::array<Grid, 3> no_beta;
  const Operator quartic{nc, 0, 1, 1, 1, none, no_beta}; // for its ghosts only
  auto quadratic = [&](const Index& p) {                 // apply_BCs_v2's tensor-product ghosts
    double sum = 0;
    auto along = [&](int64_t c) -> std::vector<std::pair<int64_t, double>> {
      if (c >= 0 && c < nc)
        return {{c, 1.0}};
      return c < 0 ? std::vector<std::pair<int64_t, double>>{{0, -2.5}, {1, 0.5}}
                   : std::vector<std::pair<int64_t, double>>{{nc - 1, -2.5}, {nc - 2, 0.5}};
    };
    for (auto [z, wz] : along(p[0]))
      for (auto [y, wy] : along(p[1]))
        for (auto [x, wx] : along(p[2]))
          sum += wz * wy * wx * e[static_cast<std::size_t>((z * nc + y) * nc + x)];
    return sum;
  };
  const std::vector<double> even =
      order == 4 ? std::vector<double>{-3.0 / 128, 22.0 / 128, 1, -22.0 / 128, 3.0 / 128}
                 : std::vector<double>{1.0 / 8, 1, -1.0 / 8};
  const int half = static_cast<int>(even.size() / 2);
  const int64_t n = 2 * nc;
  Grid out = u_fine;
  for (int64_t z = 0; z < n; ++z)
    for (int64_t y = 0; y < n; ++y)
      for (int64_t x = 0; x < n; ++x) {
        const Index fine{z, y, x};
        double sum = 0;
        for (int a = -half; a <= half; ++a)
          for (int b = -half; b <= half; ++b)
            for (int c = -half; c <= half; ++c) {
              const int t[3] = {a, b, c};
              double w = 1;
              Index at{};
              for (int k = 0; k < 3; ++k) {
                w *= even[static_cast<std::size_t>(fine[k] % 2 == 0 ? t[k] + half : half - t[k])];
                at[k] = fine[k] / 2 + t[k];
              }
              sum += w * (order == 4 ? quartic.u_at(e, at) : quadratic(at));
            }
        out[static_cast<std::size_t>((z * n + y) * n + x)] += sum;
      }
  return out;
}

} // namespace tessera::testing::fv4
