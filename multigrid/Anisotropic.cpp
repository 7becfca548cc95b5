#include "multigrid/Anisotropic.h"

#include <cmath>
#include <numbers>

#include "core/Error.h"
#include "multigrid/Problems.h"

namespace tessera::multigrid {

Problem anisotropic_poisson(int dims, int64_t n, double epsilon) {
  if (dims != 2 && dims != 3)
    user_error(cat("the anisotropic Poisson problem has 2 or 3 dimensions (a coupling along y "
                   "next to x), got ",
                   dims));
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    user_error(
        cat("the anisotropy (the coupling along y) must be a positive number, got ", epsilon));
  Problem p = manufactured_poisson(dims, n, Centring::Cell);
  p.name = cat("poisson", dims, "d anisotropic ", epsilon);
  std::vector<double> coupling(static_cast<std::size_t>(dims), 1.0);
  coupling[static_cast<std::size_t>(dims - 2)] = epsilon;
  double sum = 0;
  for (double c : coupling)
    sum += c;
  // manufactured_poisson's f is d pi^2 u.
  for (double& f : p.rhs)
    f *= sum / dims;
  VariableCoefficients c;
  c.constants = {0.0, 1.0};
  c.alpha.assign(p.rhs.size(), 0.0);
  for (double ck : coupling)
    c.beta.push_back(std::vector<double>(p.rhs.size(), ck));
  p.helmholtz = std::move(c);
  return p;
}

} // namespace tessera::multigrid
