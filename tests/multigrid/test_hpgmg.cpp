// HPGMG-FV's benchmark problem (multigrid/Hpgmg.h) and the quadratic Dirichlet boundary of its
// 2nd-order operator in the solver.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "DeviceSession.h"
#include "core/Error.h"
#include "multigrid/Anisotropic.h"
#include "multigrid/Hpgmg.h"
#include "multigrid/Solver.h"

using namespace tessera;
using namespace tessera::multigrid;

TEST_CASE("hpgmg problem: HPGMG-FV's coefficients and right-hand side, and their coarsening") {
  const int64_t n = 8;
  Problem p = hpgmg_fv_problem(n, 2);
  REQUIRE(p.helmholtz);
  const auto& c = *p.helmholtz;
  CHECK(c.constants.a == 0);
  CHECK(c.constants.b == 1);
  CHECK(c.constants.quadratic_dirichlet);
  CHECK(c.constants.outer_beta == 1.0);
  const double pi = std::numbers::pi, h = 1.0 / n;
  // Cell (z, y, x) = (1, 2, 3): f at its centre, beta_x on its low x face (problem.fv.c).
  const double x = 3.5 * h, y = 2.5 * h, z = 1.5 * h;
  const std::size_t at = (1 * n + 2) * n + 3;
  auto s = [&](double v) { return std::sin(2 * pi * v); };
  const double f = std::pow(s(x) * s(y) * s(z), 7);
  double lap = 0;
  for (double v : {x, y, z})
    lap += -4 * pi * pi * 7 * f +
           4 * pi * pi * 42 * f / (s(v) * s(v)) * std::pow(std::cos(2 * pi * v), 2);
  CHECK(p.rhs[at] == doctest::Approx(f + h * h / 24 * lap).epsilon(1e-12));
  const double face = s(x - h / 2) * s(y) * s(z);
  CHECK(c.beta[2][at] ==
        doctest::Approx(1 + 0.25 * face - 2 * h * h / 24 * 4 * pi * pi * 0.25 * face));
  // The faces on the domain's low boundary have beta 1 (the sines vanish there).
  CHECK(c.beta[2][(1 * n + 2) * n + 0] == doctest::Approx(1.0).epsilon(1e-14));
  // Coarsening: f averaged over the 8 children, beta_x over the 4 fine faces of the coarse face.
  Problem coarse = coarsened(p);
  CHECK(coarse.n == 4);
  double children = 0, faces = 0;
  for (int dz = 0; dz < 2; ++dz)
    for (int dy = 0; dy < 2; ++dy) {
      for (int dx = 0; dx < 2; ++dx)
        children += p.rhs[static_cast<std::size_t>(((2 + dz) * n + 2 + dy) * n + 2 + dx)];
      faces += c.beta[2][static_cast<std::size_t>(((2 + dz) * n + 2 + dy) * n + 2)];
    }
  const std::size_t coarse_at = (1 * 4 + 1) * 4 + 1;
  CHECK(coarse.rhs[coarse_at] == doctest::Approx(children / 8));
  CHECK(coarse.helmholtz->beta[2][coarse_at] == doctest::Approx(faces / 4));
  // Order 4: the same coefficients and right-hand side, the operator of operators.fv4.c.
  Problem fourth = hpgmg_fv_problem(n, 4);
  CHECK(fourth.helmholtz->constants.order == 4);
  CHECK(fourth.rhs == p.rhs);
  CHECK(fourth.helmholtz->beta == c.beta);
  CHECK_THROWS_WITH_AS(hpgmg_fv_problem(16, 3), doctest::Contains("got 3"), Error);
}

TEST_CASE("hpgmg problem: Richardson differences are the max and L2 norms of u^2h - R u^h") {
  std::vector<double> fine(64, 1.0), coarse(8, 1.0);
  fine[0] = 9; // the first coarse cell's children average to 2
  coarse[7] = 1.5;
  ErrorNorms e = richardson_difference(fine, coarse, 3, 4);
  CHECK(e.max == doctest::Approx(1.0));
  CHECK(e.l2 == doctest::Approx(std::sqrt((1.0 + 0.25) / 8)));
}

// -lap(u) = f with the manufactured sine solution, in variable-coefficient form, with HPGMG-FV's
// quadratic boundary: the error against the exact solution falls by about 4 per halving of h,
// and the solver converges as fast as with the antisymmetric ghost.
TEST_CASE("hpgmg problem: the quadratic Dirichlet boundary converges at second order") {
  std::vector<double> errors;
  for (int64_t n : {8, 16, 32}) {
    Problem p = anisotropic_poisson(3, n, 1.0);
    p.helmholtz->constants.quadratic_dirichlet = true;
    p.helmholtz->constants.outer_beta = 1.0;
    Solver solver(testing::multigrid_session(), p, {});
    SolveResult r = solver.solve();
    CHECK(r.converged);
    CHECK(r.mean_factor() < 0.15);
    REQUIRE(r.max_error);
    errors.push_back(*r.max_error);
  }
  CHECK(errors[0] / errors[1] > 3); // 3.2: 8^3 is not yet asymptotic
  CHECK(errors[1] / errors[2] == doctest::Approx(4).epsilon(0.1));
}
