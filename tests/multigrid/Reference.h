// Straightforward loop implementations of the multigrid operators on flat row-major grids of
// d dimensions, written independently of the DSL forms in multigrid/: the tests compare both.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::testing::mg {

using Grid = std::vector<double>;

struct Shape {
  int dims;
  int64_t n;
  int64_t points() const {
    int64_t p = 1;
    for (int d = 0; d < dims; ++d)
      p *= n;
    return p;
  }
  std::vector<int64_t> index(int64_t flat) const {
    std::vector<int64_t> idx(dims);
    for (int d = dims - 1; d >= 0; --d) {
      idx[d] = flat % n;
      flat /= n;
    }
    return idx;
  }
  int64_t flat(const std::vector<int64_t>& idx) const {
    int64_t f = 0;
    for (int64_t i : idx)
      f = f * n + i;
    return f;
  }
};

// u at idx, which may lie one layer outside the grid: "antisymmetric" (-u of the mirrored
// cell), "mirror", "wrap" or "zero".
inline double read(const Grid& u, const Shape& s, std::vector<int64_t> idx, const std::string& bc) {
  double sign = 1;
  for (auto& i : idx) {
    if (i >= 0 && i < s.n)
      continue;
    if (bc == "zero")
      return 0;
    if (bc == "wrap")
      i = (i + s.n) % s.n;
    else {
      i = i < 0 ? -1 - i : 2 * s.n - 1 - i;
      if (bc == "antisymmetric")
        sign = -sign;
    }
  }
  return sign * u[s.flat(idx)];
}

inline double neighbour_sum(const Grid& u, const Shape& s, const std::vector<int64_t>& idx,
                            const std::string& bc) {
  double sum = 0;
  for (int d = 0; d < s.dims; ++d)
    for (int o : {-1, 1}) {
      auto j = idx;
      j[d] += o;
      sum += read(u, s, j, bc);
    }
  return sum;
}

inline Grid residual(const Grid& u, const Grid& f, const Shape& s, double h,
                     const std::string& bc) {
  Grid r(u.size());
  for (int64_t p = 0; p < s.points(); ++p)
    r[p] = f[p] - (2 * s.dims * u[p] - neighbour_sum(u, s, s.index(p), bc)) / (h * h);
  return r;
}

inline Grid jacobi(const Grid& u, const Grid& f, const Shape& s, double h, double omega,
                   const std::string& bc) {
  Grid out(u.size());
  for (int64_t p = 0; p < s.points(); ++p) {
    double au = (2 * s.dims * u[p] - neighbour_sum(u, s, s.index(p), bc)) / (h * h);
    out[p] = u[p] + omega * h * h / (2 * s.dims) * (f[p] - au);
  }
  return out;
}

inline Grid gsrb(const Grid& u, const Grid& f, const Shape& s, double h, int colour,
                 const std::string& bc) {
  Grid out = u;
  for (int64_t p = 0; p < s.points(); ++p) {
    auto idx = s.index(p);
    int64_t sum = colour;
    for (auto i : idx)
      sum += i;
    if (sum % 2 == 0)
      out[p] = (h * h * f[p] + neighbour_sum(u, s, idx, bc)) / (2 * s.dims);
  }
  return out;
}

inline Grid restrict_average(const Grid& r, const Shape& fine) {
  Shape coarse{fine.dims, fine.n / 2};
  Grid out(coarse.points(), 0.0);
  for (int64_t p = 0; p < fine.points(); ++p) {
    auto idx = fine.index(p);
    for (auto& i : idx)
      i /= 2;
    out[coarse.flat(idx)] += r[p] / (1 << fine.dims);
  }
  return out;
}

inline Grid restrict_full_weighting(const Grid& r, const Shape& fine) {
  Shape coarse{fine.dims, (fine.n - 1) / 2};
  Grid out(coarse.points(), 0.0);
  for (int64_t p = 0; p < coarse.points(); ++p) {
    auto centre = coarse.index(p);
    int count = 1;
    for (int d = 0; d < fine.dims; ++d)
      count *= 3;
    for (int code = 0; code < count; ++code) {
      auto idx = centre;
      double w = 1;
      for (int d = fine.dims - 1, rest = code; d >= 0; --d, rest /= 3) {
        int o = rest % 3 - 1;
        idx[d] = 2 * centre[d] + 1 + o;
        w *= o == 0 ? 0.5 : 0.25;
      }
      out[p] += w * r[fine.flat(idx)];
    }
  }
  return out;
}

// u + P e: "constant", "linear" or "quadratic" (cell-centred, ghosts from bc), or "vertex"
// (linear, zero ends).
inline Grid prolong_add(const Grid& u, const Grid& e, const Shape& coarse, const std::string& kind,
                        const std::string& bc) {
  const bool vertex = kind == "vertex";
  Shape fine{coarse.dims, vertex ? 2 * coarse.n + 1 : 2 * coarse.n};
  Grid out = u;
  for (int64_t p = 0; p < fine.points(); ++p) {
    auto idx = fine.index(p);
    if (kind == "constant") {
      auto c = idx;
      for (auto& i : c)
        i /= 2;
      out[p] += e[coarse.flat(c)];
      continue;
    }
    // Per dimension two (coarse index, weight) pairs; the value is the tensor product.
    std::vector<std::vector<std::pair<int64_t, double>>> terms(fine.dims);
    for (int d = 0; d < fine.dims; ++d) {
      int64_t i = idx[d];
      if (kind == "quadratic") {
        const double w[2][3] = {{5.0 / 32, 30.0 / 32, -3.0 / 32}, {-3.0 / 32, 30.0 / 32, 5.0 / 32}};
        terms[d] = {{i / 2 - 1, w[i % 2][0]}, {i / 2, w[i % 2][1]}, {i / 2 + 1, w[i % 2][2]}};
      } else if (vertex)
        terms[d] = i % 2 == 1
                       ? std::vector<std::pair<int64_t, double>>{{(i - 1) / 2, 1.0}}
                       : std::vector<std::pair<int64_t, double>>{{i / 2 - 1, 0.5}, {i / 2, 0.5}};
      else
        terms[d] = {{i / 2, 0.75}, {i % 2 == 0 ? i / 2 - 1 : i / 2 + 1, 0.25}};
    }
    std::vector<std::size_t> pick(fine.dims, 0);
    while (true) {
      std::vector<int64_t> c(fine.dims);
      double w = 1;
      for (int d = 0; d < fine.dims; ++d) {
        c[d] = terms[d][pick[d]].first;
        w *= terms[d][pick[d]].second;
      }
      out[p] += w * read(e, coarse, c, vertex ? "zero" : bc);
      int d = fine.dims - 1;
      while (d >= 0 && ++pick[d] == terms[d].size())
        pick[d--] = 0;
      if (d < 0)
        break;
    }
  }
  return out;
}

// The variable-coefficient Helmholtz operator: beta[k][p] is the coefficient of the face between
// p - e_k and p; the face after the last cell reads the last one (clamped).
// With `quadratic`, HPGMG-FV's ghost -5/2 u_0 + 1/2 u_1 beside the boundary (n >= 2) and the
// exact diagonal; with `outer_beta`, that coefficient on the faces after the last cell.
struct Helmholtz {
  double a, b;
  const Grid& alpha;
  const std::vector<Grid>& beta;
  bool quadratic = false;
  std::optional<double> outer_beta = std::nullopt;
};

// (L u)_p and the diagonal D_p.
inline std::pair<double, double> helmholtz_at(const Grid& u, const Shape& s, double h,
                                              const Helmholtz& c, int64_t p,
                                              const std::string& bc) {
  auto idx = s.index(p);
  double flux = 0, faces = 0;
  for (int k = 0; k < s.dims; ++k) {
    auto lo = idx, hi = idx, hi_face = idx;
    lo[k] -= 1;
    hi[k] += 1;
    hi_face[k] = std::min(hi[k], s.n - 1);
    double b_lo = c.beta[k][p], b_hi = c.beta[k][s.flat(hi_face)];
    if (c.outer_beta && hi[k] == s.n)
      b_hi = *c.outer_beta;
    double u_lo = read(u, s, lo, bc), u_hi = read(u, s, hi, bc);
    double w_lo = 1, w_hi = 1; // the faces' weights in the diagonal
    if (c.quadratic && s.n >= 2) {
      auto second = idx; // the second cell inside, from the boundary the ghost lies beyond
      if (lo[k] < 0) {
        second[k] = idx[k] + 1;
        u_lo = -2.5 * u[p] + 0.5 * u[s.flat(second)];
        w_lo = 3.5;
      }
      if (hi[k] == s.n) {
        second[k] = idx[k] - 1;
        u_hi = -2.5 * u[p] + 0.5 * u[s.flat(second)];
        w_hi = 3.5;
      }
    } else if (c.quadratic) { // one cell: the linear ghost -u_p on both sides
      w_lo = w_hi = 2;
    }
    flux += b_hi * (u_hi - u[p]) - b_lo * (u[p] - u_lo);
    faces += w_lo * b_lo + w_hi * b_hi;
  }
  double h2inv = 1 / (h * h);
  return {c.a * c.alpha[p] * u[p] - c.b * h2inv * flux, c.a * c.alpha[p] + c.b * h2inv * faces};
}

inline Grid helmholtz_residual(const Grid& u, const Grid& f, const Shape& s, double h,
                               const Helmholtz& c, const std::string& bc) {
  Grid r(u.size());
  for (int64_t p = 0; p < s.points(); ++p)
    r[p] = f[p] - helmholtz_at(u, s, h, c, p, bc).first;
  return r;
}

inline Grid helmholtz_jacobi(const Grid& u, const Grid& f, const Shape& s, double h,
                             const Helmholtz& c, double omega, const std::string& bc) {
  Grid out(u.size());
  for (int64_t p = 0; p < s.points(); ++p) {
    auto [lu, diag] = helmholtz_at(u, s, h, c, p, bc);
    out[p] = u[p] + omega * (f[p] - lu) / diag;
  }
  return out;
}

inline Grid helmholtz_gsrb(const Grid& u, const Grid& f, const Shape& s, double h,
                           const Helmholtz& c, int colour, const std::string& bc) {
  Grid out = u;
  for (int64_t p = 0; p < s.points(); ++p) {
    int64_t sum = colour;
    for (auto i : s.index(p))
      sum += i;
    if (sum % 2 != 0)
      continue;
    auto [lu, diag] = helmholtz_at(u, s, h, c, p, bc);
    out[p] = u[p] + (f[p] - lu) / diag;
  }
  return out;
}

// The coarse low face of cell I in dimension k: the mean of the fine faces 2I + o, o_k = 0.
inline Grid restrict_face(const Grid& beta, const Shape& fine, int k) {
  Shape coarse{fine.dims, fine.n / 2};
  Grid out(coarse.points(), 0.0);
  for (int64_t p = 0; p < fine.points(); ++p) {
    auto idx = fine.index(p);
    if (idx[k] % 2 != 0)
      continue;
    for (auto& i : idx)
      i /= 2;
    out[coarse.flat(idx)] += beta[p] / (1 << (fine.dims - 1));
  }
  return out;
}

} // namespace tessera::testing::mg
