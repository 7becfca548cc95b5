#include "multigrid/Limits.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace tessera::multigrid {

SolverFootprint solver_footprint(int dims, int64_t n, Centring centring, bool variable_coefficients,
                                 const SolverOptions& options) {
  const bool f64 = options.precision == Precision::F64;
  const double element = f64 ? 8 : 4;
  const double coefficients = variable_coefficients ? 1 + dims : 0;
  const double per_level = 4 + coefficients; // u (two), f, r and the coefficients
  Level level{dims, n, f64 ? ScalarKind::F64 : ScalarKind::F32, centring};
  const double finest = static_cast<double>(level.points());
  SolverFootprint f;
  f.largest_buffer = finest * element;
  while (true) {
    f.device_bytes += per_level * element * static_cast<double>(level.points());
    if (!level.can_coarsen() || level.n <= options.coarsest)
      break;
    level = level.coarser();
  }
  if (options.precision == Precision::Mixed) {
    f.device_bytes += (4 + coefficients) * 8 * finest;
    f.largest_buffer = 8 * finest;
  }
  f.host_bytes = (3 + coefficients) * 8 * finest;
  return f;
}

namespace {

double norm(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v)
    sum += x * x;
  return std::sqrt(sum);
}

double max_of(const std::vector<double>& v) {
  double m = 0;
  for (double x : v)
    m = std::max(m, std::abs(x));
  return m;
}

// The largest row sum of |A|: 4d/h^2 for the Laplacian (2d on the diagonal, 1 per neighbour);
// the variable-coefficient operator's a alpha + b (sum of its face coefficients) doubled.
double operator_norm(const Problem& p) {
  const Level finest{p.dims, p.n, ScalarKind::F64, p.centring};
  const double h2 = finest.h() * finest.h();
  if (!p.helmholtz)
    return 4.0 * p.dims / h2;
  const auto& c = *p.helmholtz;
  double faces = 0;
  for (const auto& beta : c.beta)
    faces += 2 * max_of(beta);
  return std::abs(c.constants.a) * max_of(c.alpha) + 2 * c.constants.b * faces / h2;
}

} // namespace

double residual_floor(const Problem& problem, const std::vector<double>& solution,
                      Precision precision) {
  const double eps = precision == Precision::F32 ? std::numeric_limits<float>::epsilon()
                                                 : std::numeric_limits<double>::epsilon();
  const double f = norm(problem.rhs);
  return f > 0 ? eps * operator_norm(problem) * norm(solution) / f : 0.0;
}

} // namespace tessera::multigrid
