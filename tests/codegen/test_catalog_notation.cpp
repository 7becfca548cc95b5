// The catalog's point stencils in the new notation (inline arithmetic on values, weighted_sum):
// each is the catalog's program exactly (the same file) and generates the same kernels, byte
// for byte, for the default lowering and the first variants at depth 1. The marked lines are
// docs/language.md's "The catalog in the new notation" (ctest docs_language_catalog checks that
// the document holds them as they are).
#include <doctest/doctest.h>

#include "codegen/Program.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "explore/Variants.h"
#include "rewrite/Lower.h"
#include "stencils/Catalog.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/codegen/VariantKernels.h"

using namespace tessera;

namespace {

// [docs/language.md]
// The point at `offset` (outermost dimension first) from the centre of a window of radius r.
Val at_offset(Val w, int r, const std::vector<int>& offset) {
  for (int o : offset)
    w = w.at(r + o);
  return w;
}

Val j1d3pt(Val w) {
  auto p = [&](int i) { return at_offset(w, 1, {i}); };
  return ((p(-1) + p(0) + p(1)) / 3).named("jacobi3");
}

Val j2d5pt(Val w) {
  auto p = [&](int j, int i) { return at_offset(w, 1, {j, i}); };
  return ((5 * p(-1, 0) + 12 * p(0, -1) + 15 * p(0, 0) + 5 * p(1, 0) + 12 * p(0, 1)) / 118)
      .named("jacobi5");
}

Val j2d9pt(Val w) {
  return (weighted_sum(w, {7, 5, 9, 12, 15, 12, 9, 5, 7}) / 118).named("jacobi9");
}

Val gaussian(Val w) {
  return (weighted_sum(
              w, {2, 4, 5, 4, 2, 4, 9, 12, 9, 4, 5, 12, 15, 12, 5, 4, 9, 12, 9, 4, 2, 4, 5, 4, 2}) /
          159)
      .named("gauss5x5");
}

Val grad2d(Val w) {
  auto p = [&](int j, int i) { return at_offset(w, 1, {j, i}); };
  Val c = p(0, 0), n = p(-1, 0), s = p(1, 0), e = p(0, 1), west = p(0, -1);
  return (c + 1.0 / sqrt(0.0001 + (c - n) * (c - n) + (c - s) * (c - s) + (c - e) * (c - e) +
                         (c - west) * (c - west)))
      .named("grad");
}

Val j3d7pt(Val w) {
  auto p = [&](int k, int j, int i) { return at_offset(w, 1, {k, j, i}); };
  return (0.161 * p(0, 0, 1) + 0.162 * p(0, 0, -1) + 0.163 * p(0, 1, 0) + 0.164 * p(0, -1, 0) +
          0.165 * p(1, 0, 0) + 0.166 * p(-1, 0, 0) - 1.67 * p(0, 0, 0))
      .named("jacobi7");
}

Val j3d13pt(Val w) {
  auto p = [&](int k, int j, int i) { return 0.083 * at_offset(w, 2, {k, j, i}); };
  return (p(0, 0, 2) + p(0, 0, 1) + p(0, 0, -1) + p(0, 0, -2) + p(0, 2, 0) + p(0, 1, 0) +
          p(0, -1, 0) + p(0, -2, 0) + p(2, 0, 0) + p(1, 0, 0) + p(-1, 0, 0) + p(-2, 0, 0) -
          0.996 * at_offset(w, 2, {0, 0, 0}))
      .named("jacobi13");
}

Val j3d27pt(Val w) {
  return (weighted_sum(w, {0.5,  0.7,  0.9,  1.2,  1.5,  1.2,  0.9,  0.7,  0.5,
                           0.51, 0.71, 0.91, 1.21, 1.51, 1.21, 0.91, 0.71, 0.51,
                           0.52, 0.72, 0.92, 1.22, 1.52, 1.22, 0.92, 0.72, 0.52}) /
          159)
      .named("jacobi27");
}

Val heat3d(Val w) {
  auto p = [&](int k, int j, int i) { return at_offset(w, 1, {k, j, i}); };
  Val c = p(0, 0, 0);
  return (0.125 * (p(1, 0, 0) - 2.0 * c + p(-1, 0, 0)) +
          0.125 * (p(0, 1, 0) - 2.0 * c + p(0, -1, 0)) +
          0.125 * (p(0, 0, 1) - 2.0 * c + p(0, 0, -1)) + c)
      .named("heat");
}

Val poisson3d(Val w) {
  auto p = [&](int k, int j, int i) { return at_offset(w, 1, {k, j, i}); };
  Val edges = p(-1, -1, 0) + p(1, -1, 0) + p(-1, 1, 0) + p(1, 1, 0) + p(-1, 0, -1) + p(1, 0, -1) +
              p(0, -1, -1) + p(0, 1, -1) + p(-1, 0, 1) + p(1, 0, 1) + p(0, -1, 1) + p(0, 1, 1);
  return (2.666 * p(0, 0, 0) -
          0.166 * (p(-1, 0, 0) + p(1, 0, 0) + p(0, -1, 0) + p(0, 1, 0) + p(0, 0, 1) + p(0, 0, -1)) -
          0.0833 * edges)
      .named("poisson");
}
// [/docs/language.md]

struct Entry {
  const char* name;
  Val (*point)(Val);
  int radius;
  std::vector<ArithExpr> extents;
};

// x | pad_nd(d, r, r, clamp) | slide_nd(d, 2r+1, 1) | map_nd(d, point), as the catalog builds it.
Expr stencil(const Entry& e) {
  const int d = static_cast<int>(e.extents.size());
  Val x = input("x", array_of(f32(), e.extents));
  return program({x}, x | pad_nd(d, e.radius, e.radius, clamp) | slide_nd(d, 2 * e.radius + 1, 1) |
                          map_nd(d, Fun(e.point)));
}

} // namespace

TEST_CASE("the catalog's point stencils in the new notation are the catalog's programs and "
          "generate its kernels, byte for byte") {
  const std::vector<Entry> entries = {
      {"j1d3pt", j1d3pt, 1, {64}},         {"j2d5pt", j2d5pt, 1, {16, 24}},
      {"j2d9pt", j2d9pt, 1, {16, 24}},     {"gaussian", gaussian, 2, {16, 24}},
      {"grad2d", grad2d, 1, {16, 24}},     {"j3d7pt", j3d7pt, 1, {8, 8, 16}},
      {"j3d13pt", j3d13pt, 2, {8, 8, 16}}, {"j3d27pt", j3d27pt, 1, {8, 8, 16}},
      {"heat3d", heat3d, 1, {8, 8, 16}},   {"poisson3d", poisson3d, 1, {8, 8, 16}}};
  for (const auto& e : entries) {
    CAPTURE(e.name);
    Expr catalog = stencils::find_stencil(e.name).build(e.extents);
    Expr notation = stencil(e);
    CHECK(structurally_equal(catalog, notation));
    CHECK(save_expr(catalog) == save_expr(notation)); // names, weights, parameter order
    auto expected = testing::variant_kernel_texts(catalog, 6, 1),
         got = testing::variant_kernel_texts(notation, 6, 1);
    REQUIRE(got.size() == expected.size());
    CHECK(got.size() >= 3);
    for (std::size_t i = 0; i < got.size(); ++i) {
      CAPTURE(i);
      CHECK(got[i] == expected[i]);
    }
    testing::check_kernel(rewrite::lower_default(notation), random_inputs(notation, 9));
  }
}
