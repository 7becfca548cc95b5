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
  return centring == Centring::Cell ? Boundary::mirror() : detail::zero_boundary(level);
}

PoissonProblem manufactured_poisson(int dims, int64_t n, Centring centring) {
  if (dims < 1 || dims > 3)
    user_error(cat("the Poisson problem has 1, 2 or 3 dimensions, got ", dims));
  if (n < 2 || n > (int64_t{1} << 20))
    user_error(cat("the grid side must be between 2 and 2^20, got ", n));
  PoissonProblem p;
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

} // namespace tessera::multigrid
