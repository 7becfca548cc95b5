#include "multigrid/Hpgmg.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/Error.h"

namespace tessera::multigrid {

namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;

// problem.fv.c's beta at (x, y, z) with h^2/24 times its second derivative along the directions
// flagged in `along` (a face average: the face's two tangential directions).
double beta_at(const double x[3], double h, const bool along[3]) {
  const double s = std::sin(kTwoPi * x[0]) * std::sin(kTwoPi * x[1]) * std::sin(kTwoPi * x[2]);
  double b = 1 + 0.25 * s;
  const double second = -kTwoPi * kTwoPi * 0.25 * s; // each of B_xx, B_yy, B_zz
  for (int k = 0; k < 3; ++k)
    if (along[k])
      b += h * h / 24 * second;
  return b;
}

// problem.fv.c's f = prod_k sin^7(2 pi x_k) plus h^2/24 times its three second derivatives.
double f_at(const double x[3], double h) {
  const double p = 7;
  double sines[3], cosines[3];
  for (int k = 0; k < 3; ++k) {
    sines[k] = std::sin(kTwoPi * x[k]);
    cosines[k] = std::cos(kTwoPi * x[k]);
  }
  const double f = std::pow(sines[0], p) * std::pow(sines[1], p) * std::pow(sines[2], p);
  double laplacian = 0;
  for (int k = 0; k < 3; ++k) {
    double others = 1;
    for (int j = 0; j < 3; ++j)
      if (j != k)
        others *= std::pow(sines[j], p);
    laplacian += -kTwoPi * kTwoPi * p * f + kTwoPi * kTwoPi * p * (p - 1) *
                                                std::pow(sines[k], p - 2) * cosines[k] *
                                                cosines[k] * others;
  }
  return f + h * h / 24 * laplacian;
}

std::size_t flat(const std::vector<int64_t>& idx, int64_t n) {
  std::size_t at = 0;
  for (int64_t i : idx)
    at = at * static_cast<std::size_t>(n) + static_cast<std::size_t>(i);
  return at;
}

// The mean over the children of each coarse cell, or over those whose index in dimension `face`
// is even (the fine faces that make up the coarse cell's low face in that dimension).
std::vector<double> average(const std::vector<double>& fine, int dims, int64_t n_fine,
                            int face = -1) {
  const int64_t n = n_fine / 2;
  std::vector<double> coarse(static_cast<std::size_t>(std::pow(n, dims)), 0.0);
  std::vector<int64_t> idx(static_cast<std::size_t>(dims), 0);
  for (std::size_t c = 0; c < coarse.size(); ++c) {
    for (std::size_t rest = c, d = static_cast<std::size_t>(dims); d-- > 0;) {
      idx[d] = static_cast<int64_t>(rest % static_cast<std::size_t>(n));
      rest /= static_cast<std::size_t>(n);
    }
    double sum = 0;
    int count = 0;
    for (int corner = 0; corner < (1 << dims); ++corner) {
      std::vector<int64_t> child(idx.size());
      bool on_face = true;
      for (int d = 0; d < dims; ++d) {
        const int bit = (corner >> d) & 1;
        child[static_cast<std::size_t>(d)] = 2 * idx[static_cast<std::size_t>(d)] + bit;
        on_face &= !(d == face && bit == 1);
      }
      if (on_face) {
        sum += fine[flat(child, n_fine)];
        ++count;
      }
    }
    coarse[c] = sum / count;
  }
  return coarse;
}

} // namespace

Problem hpgmg_fv_problem(int64_t n, int order) {
  if (order != 2 && order != 4)
    user_error(cat("hpgmg3d has the orders of HPGMG-FV's operators, 2 (operators.fv2.c) and 4 "
                   "(operators.fv4.c), got ",
                   order));
  if (n < 4 || (n & (n - 1)) != 0)
    user_error(cat("hpgmg3d needs a power of two of at least 4 cells per side (HPGMG-FV's boxes "
                   "halve down the hierarchy), got ",
                   n));
  Problem p;
  p.name = "hpgmg3d";
  p.dims = 3;
  p.n = n;
  p.centring = Centring::Cell;
  p.boundary = Boundary::antisymmetric();
  VariableCoefficients c;
  c.constants = {0.0, 1.0, true, 1.0, order};
  c.beta.assign(3, {});
  const auto points = static_cast<std::size_t>(n * n * n);
  const double h = 1.0 / static_cast<double>(n);
  c.alpha.assign(points, 1.0);
  p.rhs.resize(points);
  for (std::size_t at = 0; at < points; ++at) {
    // Dimension 0 is the outermost (z), dimension 2 the innermost (x, HPGMG's i).
    double x[3];
    for (std::size_t rest = at, d = 3; d-- > 0;) {
      x[d] = (static_cast<double>(rest % static_cast<std::size_t>(n)) + 0.5) * h;
      rest /= static_cast<std::size_t>(n);
    }
    p.rhs[at] = f_at(x, h);
    for (int k = 0; k < 3; ++k) {
      double face[3] = {x[0], x[1], x[2]};
      face[k] -= 0.5 * h; // the cell's low face in dimension k
      bool along[3] = {true, true, true};
      along[k] = false;
      c.beta[static_cast<std::size_t>(k)].push_back(beta_at(face, h, along));
    }
  }
  p.helmholtz = std::move(c);
  return p;
}

Problem coarsened(const Problem& fine) {
  if (!fine.helmholtz || fine.n % 2 != 0)
    user_error(cat("coarsening a problem needs variable coefficients and an even grid side, got ",
                   fine.n));
  Problem p = fine;
  p.n = fine.n / 2;
  p.rhs = average(fine.rhs, fine.dims, fine.n);
  p.exact.reset();
  auto& c = *p.helmholtz;
  c.alpha = average(fine.helmholtz->alpha, fine.dims, fine.n);
  for (int k = 0; k < fine.dims; ++k)
    c.beta[static_cast<std::size_t>(k)] =
        average(fine.helmholtz->beta[static_cast<std::size_t>(k)], fine.dims, fine.n, k);
  return p;
}

ErrorNorms richardson_difference(const std::vector<double>& fine, const std::vector<double>& coarse,
                                 int dims, int64_t n_fine) {
  const std::vector<double> restricted = average(fine, dims, n_fine);
  if (restricted.size() != coarse.size())
    user_error(
        cat("the coarse solution has ", coarse.size(), " values, expected ", restricted.size()));
  ErrorNorms e;
  double squares = 0;
  for (std::size_t i = 0; i < coarse.size(); ++i) {
    const double d = coarse[i] - restricted[i];
    e.max = std::max(e.max, std::abs(d));
    squares += d * d;
  }
  e.l2 = std::sqrt(squares / static_cast<double>(coarse.size()));
  return e;
}

} // namespace tessera::multigrid
