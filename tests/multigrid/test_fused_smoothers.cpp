// The multigrid smoothers fused k times by stream-temporal (2.5-D blocking): weighted Jacobi
// with its right-hand side, and red-black Gauss-Seidel (a red and a black half-sweep per step,
// the colour masks alternating), against k unfused steps under the interpreter, on PoCL.
#include <doctest/doctest.h>

#include "codegen/Program.h"
#include "compile/Execute.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "multigrid/Operators.h"
#include "rewrite/Lower.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/rewrite/StreamTemporalCases.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

// The fused forms of `steps` half-steps, each run and compared with the unfused program: how
// many, and how many of them with the register window (the smoothers are star stencils).
std::pair<int, int> check_fused(const Expr& program, int64_t steps, std::vector<int64_t> tiles,
                                int64_t expected_phases) {
  auto forms = testing::stream_temporal_forms(program, steps, std::move(tiles));
  auto inputs = random_inputs(program, 11);
  Data expected = evaluate(program, inputs);
  int checked = 0, registers = 0;
  for (const auto& form : forms) {
    CAPTURE(form.params.size());
    CHECK((form.params.count("phases") ? form.params.at("phases") : 1) == expected_phases);
    Expr fused = make_lambda(program->params(), form.replacement);
    CHECK(evaluate(fused, inputs).flatten() == expected.flatten());
    auto kernels = codegen::generate_program(rewrite::lower_default(fused));
    auto run = explore::execute(testing::test_session(), kernels, inputs);
    INFO(kernels.kernels.back().source);
    CHECK(explore::max_relative_error(run.output, expected) <= 1e-4);
    ++checked;
    registers += form.params.count("registers") ? 1 : 0;
  }
  return {checked, registers};
}

} // namespace

// The extended tier (CMakeLists.txt): Jacobi fused (the same stream-temporal form as
// Gauss-Seidel's below).
TEST_CASE("weighted Jacobi with a right-hand side fused k times matches k steps" *
          doctest::test_suite("extended")) {
  for (int dims : {2, 3}) {
    Level level{dims, dims == 2 ? 16 : 8, ScalarKind::F32, Centring::Cell};
    for (int k : {2, 4}) {
      CAPTURE(dims);
      CAPTURE(k);
      Expr program = jacobi_steps(level, Boundary::antisymmetric(), 6.0 / 7.0, k);
      auto [checked, registers] = check_fused(program, k, {2, 4}, 1);
      CHECK(checked >= 2);
      CHECK(registers >= 1);
    }
  }
}

TEST_CASE("red-black Gauss-Seidel fused over k steps (2k half-sweeps) matches the half-sweeps") {
  for (int dims : {2, 3}) {
    Level level{dims, dims == 2 ? 16 : 8, ScalarKind::F32, Centring::Cell};
    for (int k : {1, 2}) {
      CAPTURE(dims);
      CAPTURE(k);
      Expr program = gsrb_steps(level, Boundary::antisymmetric(), k);
      auto [checked, registers] = check_fused(program, 2 * k, {2, 4}, 2);
      CHECK(checked >= 2);
      CHECK(registers >= 1);
    }
  }
}

TEST_CASE("fused smoothers reject a number of steps below one") {
  Level level{3, 8, ScalarKind::F32, Centring::Cell};
  CHECK_THROWS_WITH_AS(jacobi_steps(level, Boundary::antisymmetric(), 0.8, 0),
                       doctest::Contains("at least 1"), Error);
  CHECK_THROWS_WITH_AS(gsrb_steps(level, Boundary::antisymmetric(), -1),
                       doctest::Contains("at least 1"), Error);
}
