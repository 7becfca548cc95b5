#include "multigrid/Problems.h"

#include <cmath>
#include <numbers>

#include "core/Error.h"
#include "multigrid/Formula.h"

namespace tessera::multigrid {

Boundary dirichlet(Centring centring, ScalarKind kind) {
  Level level{1, 2, kind, centring};
  // Cell-centred: the ghost cell mirrors the inside with the opposite sign, so that the value
  // halfway between them, on the boundary, is zero. Vertex-centred: the boundary vertex is zero.
  return centring == Centring::Cell ? Boundary::antisymmetric() : detail::zero_boundary(level);
}

Problem manufactured_poisson(int dims, int64_t n, Centring centring) {
  if (dims < 1 || dims > 3)
    user_error(cat("the Poisson problem has 1, 2 or 3 dimensions, got ", dims));
  if (n < 2 || n > (int64_t{1} << 20))
    user_error(cat("the grid side must be between 2 and 2^20, got ", n));
  Problem p;
  p.name = cat("poisson", dims, "d");
  p.dims = dims;
  p.n = n;
  p.centring = centring;
  p.boundary = dirichlet(centring, ScalarKind::F64);
  Level level{dims, n, ScalarKind::F64, centring};
  const double h = level.h(), pi = std::numbers::pi;
  const double offset = centring == Centring::Cell ? 0.5 : 1.0;
  std::vector<double> sines(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    sines[static_cast<std::size_t>(i)] = std::sin(pi * (static_cast<double>(i) + offset) * h);
  const auto points = static_cast<std::size_t>(level.points());
  std::vector<double> u(points);
  for (std::size_t flat = 0; flat < points; ++flat) {
    double v = 1;
    for (std::size_t rest = flat, d = 0; d < static_cast<std::size_t>(dims); ++d) {
      v *= sines[rest % static_cast<std::size_t>(n)];
      rest /= static_cast<std::size_t>(n);
    }
    u[flat] = v;
  }
  p.rhs.resize(points);
  for (std::size_t i = 0; i < points; ++i)
    p.rhs[i] = dims * pi * pi * u[i];
  p.exact = std::move(u);
  return p;
}

Problem manufactured_helmholtz(int dims, int64_t n) {
  Problem p = manufactured_poisson(dims, n, Centring::Cell);
  p.name = cat("helmholtz", dims, "d");
  const double pi = std::numbers::pi, h = 1.0 / static_cast<double>(n);
  VariableCoefficients c;
  c.constants = {1.0, 1.0};
  c.beta.assign(static_cast<std::size_t>(dims), {});
  auto beta_at = [&](const std::vector<double>& x) {
    double b = 1;
    for (double xk : x)
      b += 0.25 * std::cos(2 * pi * xk);
    return b;
  };
  const auto points = p.rhs.size();
  for (std::size_t flat = 0; flat < points; ++flat) {
    std::vector<double> x(static_cast<std::size_t>(dims));
    for (std::size_t rest = flat, d = static_cast<std::size_t>(dims); d-- > 0;) {
      x[d] = (static_cast<double>(rest % static_cast<std::size_t>(n)) + 0.5) * h;
      rest /= static_cast<std::size_t>(n);
    }
    double alpha = 1, u = 1, grad_dot = 0;
    for (double xk : x) {
      alpha += xk;
      u *= std::sin(pi * xk);
    }
    for (std::size_t k = 0; k < x.size(); ++k) {
      double du = pi * std::cos(pi * x[k]);
      for (std::size_t j = 0; j < x.size(); ++j)
        if (j != k)
          du *= std::sin(pi * x[j]);
      grad_dot += -0.5 * pi * std::sin(2 * pi * x[k]) * du;
      std::vector<double> face = x;
      face[k] -= 0.5 * h; // the cell's low face in dimension k
      c.beta[k].push_back(beta_at(face));
    }
    c.alpha.push_back(alpha);
    p.rhs[flat] = c.constants.a * alpha * u - c.constants.b * grad_dot +
                  c.constants.b * beta_at(x) * dims * pi * pi * u;
  }
  p.helmholtz = std::move(c);
  return p;
}

} // namespace tessera::multigrid
