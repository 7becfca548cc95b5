// HPGMG-FV's 4th-order operator (multigrid/HelmholtzFv4.h) against the loops of ReferenceFv4.h
// on random data, every boundary case included (grids of 4 cells: the cubic face-coefficient
// extrapolation, every cell beside a boundary; 7 cells: the quartic one and inner cells), through
// the interpreter and as the kernel of the default lowering on the test device (PoCL).
#include <doctest/doctest.h>

#include <cmath>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "ReferenceFv4.h"
#include "codegen/Kernel.h"
#include "compile/Agreement.h"
#include "compile/Execute.h"
#include "core/Error.h"
#include "multigrid/Helmholtz.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "tests/multigrid/GridData.h"

using namespace tessera;
using namespace tessera::multigrid;
namespace fv4 = tessera::testing::fv4;
using tessera::testing::mg::to_data;

namespace {

void check(const Expr& program, const std::vector<Data>& inputs, const fv4::Grid& expected) {
  REQUIRE(std::any_of(expected.begin(), expected.end(), [](double v) { return v != 0; }));
  CHECK(explore::max_relative_difference(evaluate(program, inputs).flatten(), expected) <= 1e-12);
  codegen::Kernel kernel = codegen::generate_kernel(rewrite::lower_default(program));
  auto run = explore::execute(testing::multigrid_session(), kernel, inputs);
  CHECK(explore::max_relative_difference(run.output.flatten(), expected) <= 1e-12);
}

} // namespace

TEST_CASE("fv4: HPGMG-FV's 4th-order residual, Jacobi and red-black half-sweeps match loops") {
  for (int64_t n : {int64_t{4}, int64_t{7}}) {
    Level level{3, n, ScalarKind::F64, Centring::Cell};
    CAPTURE(level.describe());
    const auto points = static_cast<std::size_t>(level.points());
    fv4::Grid u = testing::random_values(points, 61), f = testing::random_values(points, 62);
    fv4::Grid alpha = testing::random_values(points, 63);
    std::array<fv4::Grid, 3> beta;
    for (auto& x : alpha)
      x += 1.5;
    for (int k = 0; k < 3; ++k) {
      beta[k] = testing::random_values(points, 64 + static_cast<uint32_t>(k));
      for (auto& x : beta[k])
        x = 1.5 + 0.25 * x; // near 1, as a smooth coefficient is: the diagonal stays positive
    }
    HelmholtzCoefficients c{0.7, 1.3, true, 1.25, 4};
    fv4::Operator ref{n, c.a, c.b, level.h(), 1.25, alpha, beta};
    std::vector<Data> in{to_data(u, level), to_data(f, level), to_data(alpha, level)};
    for (const auto& b : beta)
      in.push_back(to_data(b, level));
    const Boundary bc = Boundary::antisymmetric();
    check(helmholtz_residual(level, bc, c), in, ref.residual(u, f));
    check(helmholtz_jacobi(level, bc, c, 0.8), in, ref.jacobi(u, f, 0.8));
    for (int colour : {0, 1})
      check(helmholtz_gsrb_half_sweep(level, bc, c, colour), in, ref.gsrb(u, f, colour));
  }
}

// The extended tier (CMakeLists.txt): the residual's restricted form.
TEST_CASE("fv4: the residual restricted in one program is the 8-child average of the residual" *
          doctest::test_suite("extended")) {
  const int64_t n = 8, nc = 4;
  Level level{3, n, ScalarKind::F64, Centring::Cell};
  const auto points = static_cast<std::size_t>(level.points());
  fv4::Grid u = testing::random_values(points, 81), f = testing::random_values(points, 82);
  fv4::Grid alpha(points, 1.0);
  std::array<fv4::Grid, 3> beta;
  for (int k = 0; k < 3; ++k) {
    beta[k] = testing::random_values(points, 83 + static_cast<uint32_t>(k));
    for (auto& x : beta[k])
      x = 1.5 + 0.25 * x;
  }
  HelmholtzCoefficients c{0, 1, true, 1.0, 4};
  fv4::Operator ref{n, c.a, c.b, level.h(), 1.0, alpha, beta};
  const fv4::Grid r = ref.residual(u, f);
  fv4::Grid expected(static_cast<std::size_t>(nc * nc * nc), 0.0);
  for (int64_t p = 0; p < n * n * n; ++p) {
    const int64_t x = p % n, y = p / n % n, z = p / (n * n);
    expected[static_cast<std::size_t>((z / 2 * nc + y / 2) * nc + x / 2)] +=
        r[static_cast<std::size_t>(p)] / 8;
  }
  std::vector<Data> in{to_data(u, level), to_data(f, level), to_data(alpha, level)};
  for (const auto& b : beta)
    in.push_back(to_data(b, level));
  check(helmholtz_residual_restricted(level, Boundary::antisymmetric(), c), in, expected);
}

// What the solver runs on one device: the interpolation as a pass per dimension, each pass's
// result the next one's input, through the interpreter and as kernels on the test device.
TEST_CASE("fv4: HPGMG-FV's interpolations as one pass per dimension match loops") {
  for (int order : {4, 2})
    for (int64_t nc : {int64_t{order == 4 ? 4 : 2}, int64_t{5}, int64_t{8}}) {
      Level coarse{3, nc, ScalarKind::F64, Centring::Cell}, fine{3, 2 * nc, ScalarKind::F64};
      CAPTURE(order);
      CAPTURE(coarse.describe());
      fv4::Grid u = testing::random_values(static_cast<std::size_t>(fine.points()), 71);
      fv4::Grid e = testing::random_values(static_cast<std::size_t>(coarse.points()), 72);
      const fv4::Grid expected = fv4::prolong_hpgmg(u, e, nc, order);
      Data interpreted = to_data(e, coarse), device = interpreted;
      for (int k = 2; k >= 0; --k) {
        const Expr pass = prolong_hpgmg_fv_pass(coarse, order, k);
        std::vector<Data> in{interpreted}, on_device{device};
        if (k == 0) {
          in.insert(in.begin(), to_data(u, fine));
          on_device.insert(on_device.begin(), to_data(u, fine));
        }
        interpreted = evaluate(pass, in);
        device = explore::execute(testing::multigrid_session(),
                                  codegen::generate_kernel(rewrite::lower_default(pass)), on_device)
                     .output;
        const auto sizes = prolong_hpgmg_fv_pass_sizes(coarse, k);
        CHECK(std::vector<int64_t>{static_cast<int64_t>(interpreted.size()),
                                   static_cast<int64_t>(interpreted[0].size()),
                                   static_cast<int64_t>(interpreted[0][0].size())} == sizes);
      }
      CHECK(explore::max_relative_difference(interpreted.flatten(), expected) <= 1e-12);
      CHECK(explore::max_relative_difference(device.flatten(), expected) <= 1e-12);
    }
}

// The extended tier (CMakeLists.txt): HPGMG's interpolations (the one-launch 4th-order solve
// uses them too).
TEST_CASE("fv4: HPGMG-FV's interpolations (interpolation_v4, interpolation_v2) match loops" *
          doctest::test_suite("extended")) {
  for (int order : {4, 2})
    for (int64_t nc : {int64_t{order == 4 ? 4 : 2}, int64_t{5}}) {
      Level coarse{3, nc, ScalarKind::F64, Centring::Cell}, fine{3, 2 * nc, ScalarKind::F64};
      CAPTURE(order);
      CAPTURE(coarse.describe());
      fv4::Grid u = testing::random_values(static_cast<std::size_t>(fine.points()), 71);
      fv4::Grid e = testing::random_values(static_cast<std::size_t>(coarse.points()), 72);
      check(prolong_hpgmg_fv(coarse, order), {to_data(u, fine), to_data(e, coarse)},
            fv4::prolong_hpgmg(u, e, nc, order));
    }
  // The cell averages of a quartic are interpolated to the fine cells' averages exactly where
  // no ghost is read (the coarse cell 2 or more from the boundary): x^4 along the innermost axis.
  const int64_t nc = 8, n = 16;
  auto average = [](double a, double b) {
    return (std::pow(b, 5) - std::pow(a, 5)) / (5 * (b - a));
  };
  fv4::Grid e, zero(static_cast<std::size_t>(n * n * n), 0.0);
  for (int64_t p = 0; p < nc * nc * nc; ++p)
    e.push_back(average(double(p % nc) / nc, double(p % nc + 1) / nc));
  Level coarse{3, nc, ScalarKind::F64, Centring::Cell}, fine{3, n, ScalarKind::F64};
  const auto out =
      evaluate(prolong_hpgmg_fv(coarse, 4), {to_data(zero, fine), to_data(e, coarse)}).flatten();
  for (int64_t p = 0; p < n * n * n; ++p) {
    const int64_t x = p % n, y = p / n % n, z = p / (n * n);
    if (x / 2 >= 2 && x / 2 < nc - 2 && y / 2 >= 2 && y / 2 < nc - 2 && z / 2 >= 2 &&
        z / 2 < nc - 2)
      CHECK(out[std::size_t(p)] ==
            doctest::Approx(average(double(x) / n, double(x + 1) / n)).epsilon(1e-12));
  }
  CHECK_THROWS_WITH_AS(prolong_hpgmg_fv(Level{3, 2, ScalarKind::F64, Centring::Cell}, 4),
                       doctest::Contains("at least 4 cells"), Error);
  CHECK_THROWS_WITH_AS(prolong_hpgmg_fv(coarse, 3), doctest::Contains("got order 3"), Error);
}

TEST_CASE("fv4: the 4th-order form refuses what it does not define") {
  Level level{3, 8, ScalarKind::F64, Centring::Cell};
  const Boundary bc = Boundary::antisymmetric();
  CHECK_THROWS_WITH_AS(helmholtz_residual(level, bc, {0, 1, false, 1.0, 4}),
                       doctest::Contains("quadratic_dirichlet"), Error);
  CHECK_THROWS_WITH_AS(helmholtz_residual(level, bc, {0, 1, true, 1.0, 6}),
                       doctest::Contains("orders 2 and 4"), Error);
}
