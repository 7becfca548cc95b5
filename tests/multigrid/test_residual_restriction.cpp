// The residual fused with its restriction (residual_restricted, helmholtz_residual_restricted):
// one program against the
// residual followed by the restriction, under the interpreter and as a kernel on PoCL, and in
// the solver's cycle (residual histories equal to the unfused cycle's).
#include <doctest/doctest.h>

#include <cmath>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "codegen/Kernel.h"
#include "compile/Execute.h"
#include "multigrid/Helmholtz.h"
#include "multigrid/Hpgmg.h"
#include "multigrid/Operators.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

Data grid_data(const Level& level, uint32_t seed, double shift = 0) {
  auto v = testing::random_values(static_cast<std::size_t>(level.points()), seed);
  for (auto& x : v)
    x = level.kind == ScalarKind::F32 ? static_cast<float>(x + shift) : x + shift;
  return Data::from_flat(level.kind, std::vector<int64_t>(level.dims, level.n), v);
}

// The fused program against restrict_average after the residual `op`: interpreted, and the
// fused program's kernel on the test device.
void check_fused(const Expr& fused, const Expr& op, const Level& level,
                 const std::vector<Data>& inputs) {
  if (auto* collected = testing::collected_kernels()) {
    collected->push_back(codegen::generate_kernel(rewrite::lower_default(fused)));
    return;
  }
  const std::vector<double> expected =
      evaluate(restrict_average(level), {evaluate(op, inputs)}).flatten();
  const double tolerance = level.kind == ScalarKind::F64 ? 1e-12 : 2e-5;
  double scale = 1, interpreted = 0, kernel = 0;
  const std::vector<double> a = evaluate(fused, inputs).flatten();
  codegen::Kernel code = codegen::generate_kernel(rewrite::lower_default(fused));
  INFO(code.source);
  const std::vector<double> b =
      explore::execute(testing::multigrid_session(), code, inputs).output.flatten();
  REQUIRE(a.size() == expected.size());
  REQUIRE(b.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    scale = std::max(scale, std::abs(expected[i]));
    interpreted = std::max(interpreted, std::abs(a[i] - expected[i]));
    kernel = std::max(kernel, std::abs(b[i] - expected[i]));
  }
  CHECK(scale > 1); // residuals of random data on these grids are large
  CHECK(interpreted <= tolerance * scale);
  CHECK(kernel <= tolerance * scale);
}

} // namespace

TEST_CASE("residual fused with restriction equals the residual then the restriction") {
  testing::with_kernels_built_together([] {
    for (int d = 1; d <= 3; ++d)
      for (auto kind : {ScalarKind::F64, ScalarKind::F32}) {
        Level level{d, d == 3 ? 8 : 16, kind, Centring::Cell};
        CAPTURE(level.describe());
        const Data u = grid_data(level, 71), f = grid_data(level, 72);
        for (Boundary bc : {Boundary::antisymmetric(), Boundary::mirror(), Boundary::wrap()})
          check_fused(residual_restricted(level, bc), residual(level, bc), level, {u, f});
        std::vector<Data> inputs{u, f, grid_data(level, 73, 1.5)};
        for (int k = 0; k < d; ++k)
          inputs.push_back(grid_data(level, 74 + static_cast<uint32_t>(k), 1.5));
        const Boundary anti = Boundary::antisymmetric();
        for (HelmholtzCoefficients c :
             {HelmholtzCoefficients{0.7, 1.3}, HelmholtzCoefficients{0.7, 1.3, true, 1.25}})
          check_fused(helmholtz_residual_restricted(level, anti, c),
                      helmholtz_residual(level, anti, c), level, inputs);
      }
  });
  Level vertex{2, 15, ScalarKind::F64, Centring::Vertex};
  CHECK_THROWS_WITH_AS(residual_restricted(vertex, Boundary::mirror()),
                       doctest::Contains("cell-centred"), Error);
}

TEST_CASE("residual fused with restriction in the cycle: the same residual histories") {
  std::vector<std::pair<Problem, SolverOptions>> runs;
  runs.push_back({manufactured_poisson(3, 32, Centring::Cell), {}});
  runs.push_back({manufactured_helmholtz(3, 16), {}});
  runs.back().second.cycle = CycleKind::W;
  runs.push_back({hpgmg_fv_problem(16, 2), {}});
  runs.back().second.cycle = CycleKind::F;
  for (auto& [problem, options] : runs) {
    CAPTURE(problem.name);
    options.coarse_launch_side = 0; // the 16^3 problems' operators apart, for their breakdown
    options.profile_kernels = true;
    options.fused_residual_restriction = false;
    Solver apart(testing::multigrid_session(), problem, options);
    SolveResult unfused = apart.solve();
    options.fused_residual_restriction = true;
    Solver together(testing::multigrid_session(), problem, options);
    SolveResult r = together.solve();
    CHECK(r.converged);
    REQUIRE(r.cycles.size() == unfused.cycles.size());
    for (std::size_t c = 0; c < r.cycles.size(); ++c)
      CHECK(std::abs(r.cycles[c].relative - unfused.cycles[c].relative) <=
            1e-12 * unfused.cycles[c].relative);
    CHECK(r.breakdown.count("residual+restrict") == 1);
    CHECK(unfused.breakdown.count("residual+restrict") == 0);
    // The fine residual is neither written nor read again.
    double fused_bytes = r.bytes_per_cycle.at("residual+restrict");
    double unfused_bytes =
        unfused.bytes_per_cycle.at("residual") + unfused.bytes_per_cycle.at("restrict");
    CHECK(fused_bytes < unfused_bytes);
  }
}
