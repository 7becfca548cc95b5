// A plain C++ geometric multigrid with the operators of tessera's solver, the baseline of
// mg_bench: 3-D cell-centred Poisson, homogeneous Dirichlet by antisymmetric ghosts, red-black
// Gauss-Seidel in place, the 8-cell average restriction, trilinear interpolation, V-cycles down
// to 2^3 cells solved by 8 smoothing steps. f64, OpenMP over the outer loops, as a user would
// write it by hand.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

namespace tessera::bench {

class HostMultigrid {
public:
  HostMultigrid(int64_t n, const std::vector<double>& rhs, int pre, int post, int coarsest = 2,
                int coarse_sweeps = 8)
      : pre_(pre), post_(post), coarse_sweeps_(coarse_sweeps) {
    for (int64_t m = n; m >= coarsest; m /= 2) {
      Level l;
      l.n = m;
      l.h = 1.0 / static_cast<double>(m);
      l.u.assign(static_cast<std::size_t>(m * m * m), 0.0);
      l.f = l.u;
      l.r = l.u;
      levels_.push_back(std::move(l));
      if (m % 2 != 0 || m == coarsest)
        break;
    }
    levels_[0].f = rhs;
  }

  // One V-cycle; returns ||f - A u||_2 afterwards.
  double cycle() {
    vcycle(0);
    residual(levels_[0]);
    double s = 0;
    for (double v : levels_[0].r)
      s += v * v;
    return std::sqrt(s);
  }
  const std::vector<double>& solution() const { return levels_[0].u; }

private:
  struct Level {
    int64_t n = 0;
    double h = 0;
    std::vector<double> u, f, r;
  };

  // u at (k, j, i), each index at most one outside: the ghost is minus the mirrored cell.
  static double at(const Level& l, int64_t k, int64_t j, int64_t i) {
    const int64_t n = l.n;
    double sign = 1;
    if (k < 0 || k >= n) {
      k = k < 0 ? 0 : n - 1;
      sign = -sign;
    }
    if (j < 0 || j >= n) {
      j = j < 0 ? 0 : n - 1;
      sign = -sign;
    }
    if (i < 0 || i >= n) {
      i = i < 0 ? 0 : n - 1;
      sign = -sign;
    }
    return sign * l.u[static_cast<std::size_t>((k * n + j) * n + i)];
  }
  static double neighbours(const Level& l, int64_t k, int64_t j, int64_t i) {
    return at(l, k - 1, j, i) + at(l, k + 1, j, i) + at(l, k, j - 1, i) + at(l, k, j + 1, i) +
           at(l, k, j, i - 1) + at(l, k, j, i + 1);
  }

  static void half_sweep(Level& l, int colour) {
    const int64_t n = l.n;
    const double h2 = l.h * l.h;
#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = (k + j + colour) % 2; i < n; i += 2) {
          auto p = static_cast<std::size_t>((k * n + j) * n + i);
          l.u[p] = (h2 * l.f[p] + neighbours(l, k, j, i)) / 6.0;
        }
  }
  void smooth(Level& l, int steps) {
    for (int s = 0; s < steps; ++s) {
      half_sweep(l, 0);
      half_sweep(l, 1);
    }
  }
  static void residual(Level& l) {
    const int64_t n = l.n;
    const double h2inv = 1.0 / (l.h * l.h);
#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
          auto p = static_cast<std::size_t>((k * n + j) * n + i);
          l.r[p] = l.f[p] - h2inv * (6.0 * l.u[p] - neighbours(l, k, j, i));
        }
  }
  static void restrict_residual(const Level& fine, Level& coarse) {
    const int64_t n = coarse.n, m = fine.n;
#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t k = 0; k < n; ++k)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < n; ++i) {
          double s = 0;
          for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
              for (int c = 0; c < 2; ++c)
                s +=
                    fine.r[static_cast<std::size_t>(((2 * k + a) * m + 2 * j + b) * m + 2 * i + c)];
          coarse.f[static_cast<std::size_t>((k * n + j) * n + i)] = s / 8.0;
        }
  }
  // fine.u += trilinear interpolation of coarse.u (3/4 of the own coarse cell, 1/4 of the
  // neighbour on the fine cell's side, per dimension).
  static void prolong_add(const Level& coarse, Level& fine) {
    const int64_t m = fine.n;
#pragma omp parallel for collapse(2) schedule(static)
    for (int64_t k = 0; k < m; ++k)
      for (int64_t j = 0; j < m; ++j)
        for (int64_t i = 0; i < m; ++i) {
          int64_t ck = k / 2, cj = j / 2, ci = i / 2;
          int64_t ok = k % 2 ? 1 : -1, oj = j % 2 ? 1 : -1, oi = i % 2 ? 1 : -1;
          double v = 0;
          for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b)
              for (int c = 0; c < 2; ++c)
                v += (a ? 0.25 : 0.75) * (b ? 0.25 : 0.75) * (c ? 0.25 : 0.75) *
                     at(coarse, ck + a * ok, cj + b * oj, ci + c * oi);
          fine.u[static_cast<std::size_t>((k * m + j) * m + i)] += v;
        }
  }

  void vcycle(std::size_t l) {
    Level& L = levels_[l];
    if (l + 1 == levels_.size()) {
      smooth(L, coarse_sweeps_);
      return;
    }
    Level& C = levels_[l + 1];
    smooth(L, pre_);
    residual(L);
    restrict_residual(L, C);
    std::fill(C.u.begin(), C.u.end(), 0.0);
    vcycle(l + 1);
    prolong_add(C, L);
    smooth(L, post_);
  }

  std::vector<Level> levels_;
  int pre_, post_, coarse_sweeps_;
};

} // namespace tessera::bench
