// weighted_sum with the weights as an input array (dsl/ValArith.h): the unrolled sum of the
// constant form, with the coefficients read from the program's second input. Every executable
// variant is checked against the reference interpreter on PoCL, and the interpreter against a
// plain C++ loop.
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "explore/Variants.h"
#include "rewrite/Lower.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

namespace {

// A radius-1 box over a d-dimensional grid, weighted by `weights` (any shape of 3^d values).
Expr weighted_box(const std::vector<ArithExpr>& extents, const Type& weights_type) {
  const int dims = static_cast<int>(extents.size());
  Val x = input("x", array_of(f32(), extents));
  Val w = input("weights", weights_type);
  return program({x, w}, x | pad_nd(dims, 1, 1, clamp) | slide_nd(dims, 3, 1) |
                             map_nd(dims, [w](Val n) { return weighted_sum(n, w) * 0.5f; }));
}

// The same weighted 3x3 box as a plain loop with clamped reads.
std::vector<double> reference_box_2d(const std::vector<double>& x, const std::vector<double>& w,
                                     int rows, int cols) {
  std::vector<double> out(x.size());
  auto clamped = [](int i, int n) { return std::min(std::max(i, 0), n - 1); };
  for (int j = 0; j < rows; ++j)
    for (int i = 0; i < cols; ++i) {
      float sum = 0;
      for (int a = 0; a < 3; ++a)
        for (int b = 0; b < 3; ++b) {
          float v =
              static_cast<float>(x[clamped(j + a - 1, rows) * cols + clamped(i + b - 1, cols)]);
          float term = static_cast<float>(w[a * 3 + b]) * v;
          sum = a + b == 0 ? term : sum + term;
        }
      out[j * cols + i] = sum * 0.5f;
    }
  return out;
}

} // namespace

TEST_CASE("weighted_sum with input weights is the weighted box a plain loop computes") {
  Expr p = weighted_box({6, 7}, array_of(f32(), {3, 3}));
  auto inputs = random_inputs(p, 11);
  std::vector<double> expected = reference_box_2d(inputs[0].flatten(), inputs[1].flatten(), 6, 7);
  std::vector<double> got = evaluate(p, inputs).flatten();
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    CHECK(got[i] == doctest::Approx(expected[i]).epsilon(1e-6));
  // One user function of the 9 points and the 9 weights, named after the input.
  codegen::Kernel k = codegen::generate_kernel(rewrite::lower_default(p));
  INFO(k.source);
  CHECK(k.source.find("float weights_jm1_im1") != std::string::npos);
  CHECK(k.source.find("float weights_c,") != std::string::npos);
}

// The extended tier (CMakeLists.txt); the case above checks the plain lowering.
TEST_CASE("every variant of weighted_sum with input weights matches the interpreter" *
          doctest::test_suite("extended")) {
  struct Case {
    std::vector<ArithExpr> extents;
    Type weights;
  };
  std::vector<Case> cases = {{{8, 16}, array_of(f32(), {3, 3})},
                             {{16, 8}, Type::array(f32(), 9)},
                             {{4, 8, 8}, array_of(f32(), {3, 3, 3})}};
  for (const auto& c : cases) {
    Expr p = weighted_box(c.extents, c.weights);
    CAPTURE(print(p));
    rewrite::EnumerateOptions options;
    options.depth = 1;
    auto variants = explore::executable_variants(p, options);
    REQUIRE(variants.variants.size() > 3);
    auto inputs = random_inputs(p, 12);
    for (const auto& v : variants.variants) {
      CAPTURE(print(v.program));
      testing::check_program(v.program, inputs, {}, 1e-5);
    }
  }
}

TEST_CASE("weighted_sum with input weights refuses weights that do not fit the window") {
  Val x = input("x", array_of(f32(), {8, 8}));
  Val w8 = input("weights", Type::array(f32(), 8));
  Val wd = input("weights", Type::array(f64(), 9));
  Val scalar = input("weights", f32());
  auto build = [&](const Val& w) {
    return program({x, w}, x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) |
                               map_nd(2, [w](Val n) { return weighted_sum(n, w); }));
  };
  CHECK_THROWS_WITH_AS(build(w8), doctest::Contains("hold 8 values for a window of 9 points"),
                       Error);
  CHECK_THROWS_WITH_AS(build(wd),
                       doctest::Contains("weighted_sum: weights of f64 for a window of f32 points"),
                       Error);
  CHECK_THROWS_WITH_AS(build(scalar), doctest::Contains("needs the weights as an array"), Error);
}
