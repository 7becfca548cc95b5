// Every multigrid operator in 1, 2 and 3 dimensions against the loop implementations of
// Reference.h on random data, boundaries included: through the interpreter and as the kernel
// of the default lowering on the test device (PoCL).
#include <doctest/doctest.h>

#include <cmath>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "Reference.h"
#include "codegen/Kernel.h"
#include "compile/Agreement.h"
#include "compile/Execute.h"
#include "multigrid/Helmholtz.h"
#include "multigrid/Operators.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "runtime/Session.h"
#include "tests/multigrid/GridData.h"

using namespace tessera;
using namespace tessera::multigrid;
namespace mg = tessera::testing::mg;
using mg::random_grid;
using mg::to_data;

namespace {

// The interpreter and the default kernel against the loop result `expected`.
void check(const Expr& program, const std::vector<Data>& inputs, const mg::Grid& expected,
           ScalarKind kind) {
  if (auto* collected = testing::collected_kernels()) {
    collected->push_back(codegen::generate_kernel(rewrite::lower_default(program)));
    return;
  }
  const double tolerance = kind == ScalarKind::F64 ? 1e-12 : 2e-5;
  bool nonzero = false;
  for (double v : expected)
    nonzero |= v != 0;
  REQUIRE(nonzero);
  CHECK(explore::max_relative_difference(evaluate(program, inputs).flatten(), expected) <=
        tolerance);
  codegen::Kernel kernel = codegen::generate_kernel(rewrite::lower_default(program));
  auto run = explore::execute(testing::multigrid_session(), kernel, inputs);
  INFO(kernel.source);
  CHECK(explore::max_relative_difference(run.output.flatten(), expected) <= tolerance);
}

// Positive coefficients: 1.5 + a random value in [-1, 1).
mg::Grid positive_grid(const Level& level, uint32_t seed) {
  mg::Grid g = random_grid(level, seed);
  for (auto& x : g)
    x = level.kind == ScalarKind::F32 ? static_cast<float>(1.5 + x) : 1.5 + x;
  return g;
}

// The Helmholtz operators' inputs: u, f, alpha, beta_0 .. beta_{d-1}.
std::vector<Data> helmholtz_inputs(const Level& level, const mg::Grid& u, const mg::Grid& f,
                                   const mg::Grid& alpha, const std::vector<mg::Grid>& beta) {
  std::vector<Data> in{to_data(u, level), to_data(f, level), to_data(alpha, level)};
  for (const auto& b : beta)
    in.push_back(to_data(b, level));
  return in;
}

std::vector<std::pair<Boundary, std::string>> boundaries() {
  return {{Boundary::antisymmetric(), "antisymmetric"},
          {Boundary::mirror(), "mirror"},
          {Boundary::wrap(), "wrap"}};
}

} // namespace

namespace {

void check_smoothers(ScalarKind kind) {
  for (int d = 1; d <= 3; ++d)
    for (const auto& [bc, bc_name] : boundaries()) {
      Level level{d, d == 3 ? 6 : 10, kind, Centring::Cell};
      CAPTURE(level.describe());
      CAPTURE(bc_name);
      mg::Shape s{d, level.n};
      mg::Grid u = random_grid(level, 11), f = random_grid(level, 12);
      std::vector<Data> in{to_data(u, level), to_data(f, level)};
      check(residual(level, bc), in, mg::residual(u, f, s, level.h(), bc_name), kind);
      check(jacobi(level, bc, 6.0 / 7.0), in, mg::jacobi(u, f, s, level.h(), 6.0 / 7.0, bc_name),
            kind);
      for (int colour : {0, 1})
        check(gsrb_half_sweep(level, bc, colour), in, mg::gsrb(u, f, s, level.h(), colour, bc_name),
              kind);
    }
}

} // namespace

TEST_CASE("multigrid: residual, Jacobi and red-black half-sweeps match loops") {
  testing::with_kernels_built_together([] { check_smoothers(ScalarKind::F64); });
}

namespace {

void check_restrictions(ScalarKind kind) {
  for (int d = 1; d <= 3; ++d) {
    Level cell{d, d == 3 ? 8 : 12, kind, Centring::Cell};
    CAPTURE(cell.describe());
    mg::Grid r = random_grid(cell, 21);
    check(restrict_average(cell), {to_data(r, cell)}, mg::restrict_average(r, {d, cell.n}), kind);
    Level vertex{d, d == 3 ? 7 : 15, kind, Centring::Vertex};
    mg::Grid rv = random_grid(vertex, 22);
    check(restrict_full_weighting(vertex), {to_data(rv, vertex)},
          mg::restrict_full_weighting(rv, {d, vertex.n}), kind);
  }
}

} // namespace

// Full multigrid's quadratic start computes the two fine points of a coarse cell's row in one
// work-item on a whole grid (they read the same 27 coarse values: BENCHMARKS.md), one point a
// work-item on a rank's box; the linear correction one point a work-item (measured faster).
TEST_CASE("multigrid: the quadratic start in pairs along x on whole grids") {
  Level coarse{3, 8, ScalarKind::F64, Centring::Cell};
  auto global_x = [](const Expr& program) {
    return codegen::generate_kernel(rewrite::lower_default(program)).launch.global[0].as_constant();
  };
  CHECK(global_x(prolong(coarse, Interpolation::Quadratic, Boundary::mirror())) == int64_t{8});
  CHECK(global_x(prolong_add(coarse, Interpolation::Linear, Boundary::mirror())) == int64_t{16});
  Level box = coarse; // the whole grid as a rank's box without halos: the per-point form
  box.box = {8, 8, 8};
  box.halo_lo = box.halo_hi = {0, 0, 0};
  Level fine_box = box;
  fine_box.n = 16;
  fine_box.box = {16, 16, 16};
  CHECK(global_x(prolong(box, fine_box, Interpolation::Quadratic, Boundary::mirror())) ==
        int64_t{16});
}

TEST_CASE("multigrid: restrictions match loops") {
  testing::with_kernels_built_together([] { check_restrictions(ScalarKind::F64); });
}

namespace {

void check_interpolations(ScalarKind kind) {
  for (int d = 1; d <= 3; ++d) {
    Level coarse{d, d == 3 ? 4 : 6, kind, Centring::Cell};
    Level fine = coarse;
    fine.n = 2 * coarse.n;
    CAPTURE(coarse.describe());
    mg::Grid u = random_grid(fine, 31), e = random_grid(coarse, 32);
    std::vector<Data> in{to_data(u, fine), to_data(e, coarse)};
    check(prolong_add(coarse, Interpolation::Constant, Boundary::mirror()), in,
          mg::prolong_add(u, e, {d, coarse.n}, "constant", "mirror"), kind);
    for (const auto& [bc, bc_name] : boundaries()) {
      CAPTURE(bc_name);
      check(prolong_add(coarse, Interpolation::Linear, bc), in,
            mg::prolong_add(u, e, {d, coarse.n}, "linear", bc_name), kind);
      check(prolong_add(coarse, Interpolation::Quadratic, bc), in,
            mg::prolong_add(u, e, {d, coarse.n}, "quadratic", bc_name), kind);
      // Full multigrid's start: the interpolation alone, u + P e with u = 0.
      check(prolong(coarse, Interpolation::Quadratic, bc), {to_data(e, coarse)},
            mg::prolong_add(mg::Grid(u.size(), 0.0), e, {d, coarse.n}, "quadratic", bc_name), kind);
    }
    Level vcoarse{d, 3, kind, Centring::Vertex};
    Level vfine = vcoarse;
    vfine.n = 7;
    mg::Grid uv = random_grid(vfine, 33), ev = random_grid(vcoarse, 34);
    check(prolong_add(vcoarse, Interpolation::Linear, Boundary::mirror()),
          {to_data(uv, vfine), to_data(ev, vcoarse)},
          mg::prolong_add(uv, ev, {d, vcoarse.n}, "vertex", "zero"), kind);
  }
}

} // namespace

TEST_CASE("multigrid: interpolations added to the fine grid match loops") {
  testing::with_kernels_built_together([] { check_interpolations(ScalarKind::F64); });
}

TEST_CASE("multigrid: levels coarsen only when the sizes allow it") {
  Level odd{3, 6, ScalarKind::F64, Centring::Cell};
  CHECK(odd.coarser().n == 3);
  CHECK_THROWS_WITH(odd.coarser().coarser(), doctest::Contains("does not coarsen"));
  Level vertex{2, 15, ScalarKind::F32, Centring::Vertex};
  CHECK(vertex.coarser().n == 7);
  CHECK_THROWS_WITH(jacobi(odd, Boundary::mirror(), 2.5), doctest::Contains("0 < omega < 2"));
}

namespace {

void check_helmholtz(ScalarKind kind) {
  for (int d = 1; d <= 3; ++d)
    for (const auto& [bc, bc_name] : boundaries()) {
      Level level{d, d == 3 ? 6 : 8, kind, Centring::Cell};
      CAPTURE(level.describe());
      CAPTURE(bc_name);
      mg::Shape s{d, level.n};
      mg::Grid u = random_grid(level, 41), f = random_grid(level, 42);
      mg::Grid alpha = positive_grid(level, 43);
      std::vector<mg::Grid> beta;
      for (int k = 0; k < d; ++k)
        beta.push_back(positive_grid(level, 44 + k));
      HelmholtzCoefficients c{0.7, 1.3};
      mg::Helmholtz ref{c.a, c.b, alpha, beta};
      const std::vector<Data> in = helmholtz_inputs(level, u, f, alpha, beta);
      check(helmholtz_residual(level, bc, c), in,
            mg::helmholtz_residual(u, f, s, level.h(), ref, bc_name), kind);
      check(helmholtz_jacobi(level, bc, c, 0.8), in,
            mg::helmholtz_jacobi(u, f, s, level.h(), ref, 0.8, bc_name), kind);
      for (int colour : {0, 1})
        check(helmholtz_gsrb_half_sweep(level, bc, c, colour), in,
              mg::helmholtz_gsrb(u, f, s, level.h(), ref, colour, bc_name), kind);
      for (int k = 0; k < d; ++k)
        check(restrict_face_coefficient(level, k), {to_data(beta[k], level)},
              mg::restrict_face(beta[k], s, k), kind);
    }
}

} // namespace

TEST_CASE("multigrid: the variable-coefficient Helmholtz operators match loops") {
  testing::with_kernels_built_together([] { check_helmholtz(ScalarKind::F64); });
}

namespace {

void check_quadratic_dirichlet(ScalarKind kind) {
  for (int d = 1; d <= 3; ++d)
    for (int64_t n : {int64_t{1}, int64_t{2}, int64_t{d == 3 ? 5 : 7}}) {
      Level level{d, n, kind, Centring::Cell};
      CAPTURE(level.describe());
      mg::Shape s{d, level.n};
      mg::Grid u = random_grid(level, 51), f = random_grid(level, 52);
      mg::Grid alpha = positive_grid(level, 53);
      std::vector<mg::Grid> beta;
      for (int k = 0; k < d; ++k)
        beta.push_back(positive_grid(level, 54 + k));
      HelmholtzCoefficients c{0.7, 1.3, true, 1.25};
      mg::Helmholtz ref{c.a, c.b, alpha, beta, true, 1.25};
      const std::vector<Data> in = helmholtz_inputs(level, u, f, alpha, beta);
      const Boundary bc = Boundary::antisymmetric();
      check(helmholtz_residual(level, bc, c), in,
            mg::helmholtz_residual(u, f, s, level.h(), ref, "antisymmetric"), kind);
      check(helmholtz_jacobi(level, bc, c, 0.8), in,
            mg::helmholtz_jacobi(u, f, s, level.h(), ref, 0.8, "antisymmetric"), kind);
      for (int colour : {0, 1}) {
        const mg::Grid swept = mg::helmholtz_gsrb(u, f, s, level.h(), ref, colour, "antisymmetric");
        check(helmholtz_gsrb_half_sweep(level, bc, c, colour), in, swept, kind);
        // Exact Gauss-Seidel: every updated point's own equation holds after the half-sweep.
        const mg::Grid r = mg::helmholtz_residual(swept, f, s, level.h(), ref, "antisymmetric");
        for (int64_t p = 0;
             kind == ScalarKind::F64 && !testing::collected_kernels() && p < s.points(); ++p)
          if (swept[p] != u[p])
            CHECK(std::abs(r[p]) <= 1e-9);
      }
    }
}

} // namespace

TEST_CASE("multigrid: HPGMG-FV's quadratic Dirichlet boundary in the Helmholtz operators") {
  testing::with_kernels_built_together([] { check_quadratic_dirichlet(ScalarKind::F64); });
  Level level{2, 8, ScalarKind::F64, Centring::Cell};
  HelmholtzCoefficients quadratic{1, 1, true, std::nullopt};
  CHECK_THROWS_WITH_AS(helmholtz_residual(level, Boundary::mirror(), quadratic),
                       doctest::Contains("replaces the antisymmetric ghost"), Error);
}

namespace {

void check_fused_red_black(ScalarKind kind) {
  for (int d = 1; d <= 3; ++d)
    for (const auto& [bc, bc_name] : boundaries())
      for (int64_t n : {int64_t{2}, int64_t{d == 3 ? 6 : 10}}) {
        Level level{d, n, kind, Centring::Cell};
        CAPTURE(level.describe());
        CAPTURE(bc_name);
        mg::Shape s{d, level.n};
        mg::Grid u = random_grid(level, 51), f = random_grid(level, 52);
        mg::Grid half = mg::gsrb(u, f, s, level.h(), 0, bc_name);
        mg::Grid both = mg::gsrb(half, f, s, level.h(), 1, bc_name);
        check(gsrb_step(level, bc), {to_data(u, level), to_data(f, level)}, both, kind);
      }
}

} // namespace

TEST_CASE("multigrid: a fused red-black step equals the red then the black half-sweep") {
  testing::with_kernels_built_together([] { check_fused_red_black(ScalarKind::F64); });
  Level vertex{2, 7, ScalarKind::F64, Centring::Vertex};
  mg::Shape s{2, 7};
  mg::Grid u = random_grid(vertex, 53), f = random_grid(vertex, 54);
  check(gsrb_step(vertex, Boundary::constant(ScalarValue::make(ScalarKind::F64, 0.0))),
        {to_data(u, vertex), to_data(f, vertex)},
        mg::gsrb(mg::gsrb(u, f, s, vertex.h(), 0, "zero"), f, s, vertex.h(), 1, "zero"),
        ScalarKind::F64);
}

// The extended tier (CMakeLists.txt): the same operators generated and run in single precision.
TEST_CASE("multigrid: every operator above in f32 matches loops" *
          doctest::test_suite("extended")) {
  testing::with_kernels_built_together([] {
    check_smoothers(ScalarKind::F32);
    check_restrictions(ScalarKind::F32);
    check_interpolations(ScalarKind::F32);
    check_helmholtz(ScalarKind::F32);
    check_quadratic_dirichlet(ScalarKind::F32);
  });
  check_fused_red_black(ScalarKind::F32);
}
