// Red-black line relaxation (multigrid/LineRelaxation.h) on random variable coefficients: the
// kernel matches the interpreter, and, checked with the loop operator of Reference.h, every
// point of an updated line has a zero residual afterwards (each line solved exactly with its
// neighbouring lines fixed) while the other points keep u.
#include <doctest/doctest.h>

#include <cmath>
#include <set>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "Reference.h"
#include "codegen/Kernel.h"
#include "compile/ExecutableVariants.h"
#include "compile/Execute.h"
#include "compile/TridiagonalRules.h"
#include "core/Error.h"
#include "multigrid/LineRelaxation.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;
namespace mg = tessera::testing::mg;

namespace {

mg::Grid random_line_grid(const Level& level, uint32_t seed, double shift) {
  auto v = testing::random_values(static_cast<std::size_t>(level.points()), seed);
  for (auto& x : v)
    x = level.kind == ScalarKind::F32 ? static_cast<float>(shift + x) : shift + x;
  return v;
}

double max_abs(const mg::Grid& g) {
  double m = 0;
  for (double x : g)
    m = std::max(m, std::abs(x));
  return m;
}

} // namespace

TEST_CASE("line relaxation solves the lines of one colour exactly, along every dimension") {
  struct Case {
    int dims;
    int64_t n;
    ScalarKind kind;
  };
  const std::vector<std::pair<Boundary, std::string>> boundaries{
      {Boundary::antisymmetric(), "antisymmetric"},
      {Boundary::mirror(), "mirror"},
      {Boundary::constant(ScalarValue::make(ScalarKind::F64, 0.0)), "zero"}};
  for (auto [d, n, kind] :
       {Case{2, 8, ScalarKind::F64}, Case{2, 6, ScalarKind::F32}, Case{3, 4, ScalarKind::F64}})
    for (const auto& [bc, bc_name] : boundaries) {
      Level level{d, n, kind, Centring::Cell};
      CAPTURE(level.describe());
      CAPTURE(bc_name);
      mg::Shape s{d, n};
      mg::Grid u = random_line_grid(level, 51, 0), f = random_line_grid(level, 52, 0);
      mg::Grid alpha = random_line_grid(level, 53, 1.5);
      std::vector<mg::Grid> beta;
      for (int k = 0; k < d; ++k)
        beta.push_back(random_line_grid(level, 54 + k, 1.5));
      HelmholtzCoefficients c{0.7, 1.3};
      mg::Helmholtz ref{c.a, c.b, alpha, beta};
      auto data = [&](const mg::Grid& g) {
        return Data::from_flat(kind, std::vector<int64_t>(d, n), g);
      };
      std::vector<Data> in{data(u), data(f), data(alpha)};
      for (const auto& b : beta)
        in.push_back(data(b));
      const double tolerance = kind == ScalarKind::F64 ? 1e-10 : 1e-4;
      for (int axis = 0; axis < d; ++axis)
        for (int colour : {0, 1}) {
          CAPTURE(axis);
          CAPTURE(colour);
          Expr sweep = helmholtz_line_half_sweep(level, bc, c, axis, colour);
          mg::Grid interpreted = evaluate(sweep, in).flatten();
          // Kernels (slow to build on PoCL) for one boundary and colour per line direction.
          const bool on_device = bc_name == "antisymmetric" && colour == 1;
          mg::Grid run = interpreted;
          if (on_device) {
            codegen::Kernel kernel = codegen::generate_kernel(rewrite::lower_default(sweep));
            run = explore::execute(testing::multigrid_session(), kernel, in).output.flatten();
          }
          mg::Grid r = mg::helmholtz_residual(interpreted, f, s, level.h(), ref, bc_name);
          // The size of the terms that cancel in an exact residual.
          const double scale =
              max_abs(f) + c.b / (level.h() * level.h()) * 4 * d * max_abs(interpreted);
          int updated = 0;
          for (int64_t p = 0; p < s.points(); ++p) {
            auto idx = s.index(p);
            int64_t sum = colour;
            for (int k = 0; k < d; ++k)
              if (k != axis)
                sum += idx[k];
            if (sum % 2 == 0) {
              ++updated;
              CHECK(std::abs(r[p]) <= tolerance * scale);
            } else {
              CHECK(interpreted[p] == u[p]);
            }
            CHECK(std::abs(run[p] - interpreted[p]) <= tolerance * (1 + max_abs(interpreted)));
          }
          CHECK(updated == s.points() / 2);
        }
    }
}

TEST_CASE("line relaxation refuses periodic lines and lines a grid does not have") {
  Level level{2, 8, ScalarKind::F64, Centring::Cell};
  CHECK_THROWS_WITH_AS(helmholtz_line_half_sweep(level, Boundary::wrap(), {1, 1}, 1, 0),
                       doctest::Contains("cyclic"), Error);
  CHECK_THROWS_WITH_AS(helmholtz_line_half_sweep(level, Boundary::mirror(), {1, 1}, 2, 0),
                       doctest::Contains("dimensions 0 to 1"), Error);
  CHECK(line_axis(2, 'x') == 1);
  CHECK(line_axis(2, 'y') == 0);
  CHECK(line_axis(3, 'z') == 0);
  CHECK_THROWS_WITH_AS(line_axis(2, 'z'), doctest::Contains("x or y"), Error);
}

TEST_CASE("line relaxation by parallel cyclic reduction: thomas-to-pcr rewrites the sweep, the "
          "explorer's variants include it, and it computes what Thomas does") {
  Level level{2, 8, ScalarKind::F64, Centring::Cell};
  HelmholtzCoefficients c{0.7, 1.3};
  std::vector<Data> in;
  for (uint32_t seed : {61u, 62u, 63u, 64u, 65u})
    in.push_back(
        Data::from_flat(level.kind, {8, 8}, random_line_grid(level, seed, seed > 62 ? 1.5 : 0.0)));
  for (int axis : {0, 1}) {
    CAPTURE(axis);
    Expr sweep = helmholtz_line_half_sweep(level, Boundary::antisymmetric(), c, axis, 1);
    mg::Grid thomas = evaluate(sweep, in).flatten();
    int rewrites = 0;
    for (const auto& rule : explore::tridiagonal_rules())
      for (const Expr& pcr : rewrite::rewrites_everywhere(sweep, rule)) {
        CAPTURE(rule.name);
        ++rewrites;
        mg::Grid interpreted = evaluate(pcr, in).flatten();
        Expr lowered = rewrite::lower_default(pcr);
        mg::Grid run =
            explore::execute(testing::multigrid_session(), codegen::generate_kernel(lowered), in)
                .output.flatten();
        for (std::size_t p = 0; p < thomas.size(); ++p) {
          CHECK(std::abs(interpreted[p] - thomas[p]) <= 1e-10 * (1 + max_abs(thomas)));
          CHECK(std::abs(run[p] - interpreted[p]) <= 1e-10 * (1 + max_abs(thomas)));
        }
      }
    CHECK(rewrites == 2); // the solve itself, and the Map of lines into work-groups
  }
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {4};
  auto variants = explore::executable_variants(
      helmholtz_line_half_sweep(level, Boundary::antisymmetric(), c, 1, 0), options);
  std::set<std::string> rules;
  for (const auto& v : variants.variants)
    for (const auto& step : v.history)
      rules.insert(step.rule);
  CHECK(rules.count("thomas-to-pcr"));
  CHECK(rules.count("thomas-to-pcr-local"));
}
