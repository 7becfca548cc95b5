// Arithmetic on values (dsl/ValArith.h): catalog stencils written inline generate the kernels
// of their user-function form, byte for byte, for the default lowering and rewrite variants.
#include <doctest/doctest.h>

#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "compile/ExecutableVariants.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "stencils/Catalog.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/codegen/VariantKernels.h"

using namespace tessera;
using tessera::testing::check_kernel;
using tessera::testing::random_f32;

namespace {

Expr grid_program(const std::vector<ArithExpr>& extents, const std::function<Val(Val)>& point) {
  const int dims = static_cast<int>(extents.size());
  Val x = input("x", array_of(f32(), extents));
  return program({x},
                 x | pad_nd(dims, 1, 1, clamp) | slide_nd(dims, 3, 1) | map_nd(dims, Fun(point)));
}

// j2d5pt as the catalog's formula says: (5*N + 12*W + 15*C + 5*S + 12*E) / 118.
Expr j2d5pt_inline(const std::vector<ArithExpr>& extents) {
  return grid_program(extents, [](Val x) {
    Val n = x.at(0).at(1), w = x.at(1).at(0), c = x.at(1).at(1), s = x.at(2).at(1),
        e = x.at(1).at(2);
    return ((5 * n + 12 * w + 15 * c + 5 * s + 12 * e) / 118).named("jacobi5");
  });
}

// j3d7pt: 0.161*E + 0.162*W + 0.163*S + 0.164*N + 0.165*B + 0.166*F - 1.67*C.
Expr j3d7pt_inline(const std::vector<ArithExpr>& extents) {
  return grid_program(extents, [](Val x) {
    auto p = [&](int k, int j, int i) { return x.at(1 + k).at(1 + j).at(1 + i); };
    return (0.161 * p(0, 0, 1) + 0.162 * p(0, 0, -1) + 0.163 * p(0, 1, 0) + 0.164 * p(0, -1, 0) +
            0.165 * p(1, 0, 0) + 0.166 * p(-1, 0, 0) - 1.67 * p(0, 0, 0))
        .named("jacobi7");
  });
}

// j2d9pt with weighted_sum: the 3x3 weights of the catalog, row-major.
Expr j2d9pt_weighted(const std::vector<ArithExpr>& extents) {
  static const std::vector<double> w = {7, 5, 9, 12, 15, 12, 9, 5, 7};
  return grid_program(extents, [](Val x) { return (weighted_sum(x, w) / 118).named("jacobi9"); });
}

// The two programs save to the same file (same user function, body, parameter names and
// signature; structural equality compares user functions by name only) and generate the same
// kernels.
void check_same_kernels(const Expr& catalog_form, const Expr& inline_form) {
  CHECK(structurally_equal(catalog_form, inline_form));
  CHECK(save_expr(catalog_form) == save_expr(inline_form));
  // The first 16 variants are the same at depth 1 as at 4 (the enumeration goes a depth at a
  // time), where enumerating j3d7pt's every depth-4 variant took 20 s.
  auto expected = testing::variant_kernel_texts(catalog_form, 16, 1);
  auto got = testing::variant_kernel_texts(inline_form, 16, 1);
  REQUIRE(expected.size() == got.size());
  CHECK(expected.size() > 3);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    INFO("variant " << i);
    CHECK(got[i] == expected[i]);
  }
}

} // namespace

TEST_CASE("j2d5pt written inline generates the catalog's kernels, byte for byte") {
  std::vector<ArithExpr> extents = {24, 16};
  check_same_kernels(stencils::find_stencil("j2d5pt").build(extents), j2d5pt_inline(extents));
  codegen::Kernel k =
      check_kernel(rewrite::lower_default(j2d5pt_inline(extents)), {random_f32({24, 16}, 3)});
  CHECK(k.source.find("float jacobi5(float jm1, float im1, float c, float ip1, float jp1)") !=
        std::string::npos);
}

TEST_CASE("j3d7pt written inline generates the catalog's kernels, byte for byte") {
  std::vector<ArithExpr> extents = {8, 8, 16};
  check_same_kernels(stencils::find_stencil("j3d7pt").build(extents), j3d7pt_inline(extents));
  check_kernel(rewrite::lower_default(j3d7pt_inline(extents)), {random_f32({8, 8, 16}, 4)});
}

TEST_CASE("j2d9pt as a weighted_sum generates the catalog's unrolled kernels, byte for byte") {
  // The catalog's unrolled sum w0*p0 + w1*p1 + ... is what weighted_sum builds, its integral
  // weights integer numbers as there: the same program file, the same kernels.
  std::vector<ArithExpr> extents = {16, 24};
  check_same_kernels(stencils::find_stencil("j2d9pt").build(extents), j2d9pt_weighted(extents));
  check_kernel(rewrite::lower_default(j2d9pt_weighted(extents)), {random_f32({16, 24}, 5)});
}
