// Thread mapping as an explored choice (glb-order): which global dimension each level of a
// MapGlb nest takes. The catalog's prolong3d is written lowered with MapGlb(0) outermost, so its
// work-items 0, 1, 2.. store n^2 apart; the enumeration adds the other orders, the one with the
// innermost level on dimension 0 among them. The same prolongation written with high-level Maps
// is lowered with dimension 0 on the contiguous level by default.
#include <doctest/doctest.h>

#include <regex>

#include "compile/ExecutableVariants.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "rewrite/Pattern.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

namespace {

// Trilinear prolongation of a cell-centred n^3 grid to (2n)^3 (thesis Listing 2.5) with
// high-level primitives: the 2x2x2 neighbourhoods of the padded coarse grid, each repeated
// 2x2x2 times and paired with its weights, rearranged to the fine grid, then the weighted sums.
Expr prolongation_high_level(int64_t n) {
  Val coarse = input("coarse", array_of(f32(), {n, n, n}));
  Val weights = input("weights", array_of(f32(), {2, 2, 2}));
  auto mult = user_fun("mult", [](auto a, auto b) { return a * b; });
  Val nbhs = coarse | pad_nd(3, 1, 1, clamp) | slide_nd(3, 2, 1);
  Val copies =
      nbhs | map_nd(2, split(1) >> split(1) >> split(1)) | map_nd(3, pad_nd(3, 1, 0, clamp));
  Fun zip_weights([weights](Val nbh) {
    return zip_nd(3, {nbh, weights | pad_nd(3, 2, 0, mirror) | slide_nd(3, 2, 2)});
  });
  Fun pair_elements([](Val t) {
    return zip({t.get(0) | join() | join(), t.get(1) | join() | join()});
  });
  Val weighted = copies | map_nd(3, zip_weights) | map_nd(6, pair_elements);
  Val fine = weighted | map_nd(2, transpose()) | map(transpose()) | map_nd(3, transpose()) |
             join() | map(join()) | map_nd(2, join()) | drop_nd(3, 1, 1);
  Fun weighted_sum([mult](Val pairs) {
    return pairs | map(Fun([mult](Val t) { return mult(t.get(0), t.get(1)); })) |
           reduce(add_fun(), 0.0f);
  });
  return program({coarse, weights}, fine | map_nd(3, weighted_sum));
}

// The coefficients of gid0, gid1 and gid2 in the kernel's store `out[...] = `; 0 when absent.
std::array<int64_t, 3> store_strides(const std::string& source) {
  std::smatch m;
  REQUIRE(std::regex_search(source, m, std::regex(R"(out\[([^\]]*)\] = )")));
  std::string index = m[1];
  std::array<int64_t, 3> strides{0, 0, 0};
  for (int d = 0; d < 3; ++d) {
    std::smatch t;
    std::string gid = cat("gid", d);
    if (std::regex_search(index, t, std::regex(cat(R"((\d+) \* )", gid, R"(\b)"))))
      strides[static_cast<std::size_t>(d)] = std::stoll(t[1]);
    else if (std::regex_search(index, std::regex(cat(R"(\b)", gid, R"(\b)"))))
      strides[static_cast<std::size_t>(d)] = 1;
  }
  return strides;
}

bool has_glb_order_step(const rewrite::Variant& v) {
  for (const auto* steps : {&v.history, &v.after_mapping})
    for (const auto& s : *steps)
      if (s.rule == "glb-order")
        return true;
  return false;
}

} // namespace

TEST_CASE("glb-order permutes the dimensions of a MapGlb nest, and says why not") {
  static const rewrite::Rule rule = rewrite::thread_mapping_rules().front();
  Val x = input("x", array_of(f32(), {4, 6, 8}));
  Expr p = program({x}, x | map_glb(0, map_glb(1, map_glb(2, id_fun()))));
  rewrite::RuleContext ctx;
  auto r = rule.apply(p->body()->callee(), ctx);
  REQUIRE(r.alternatives.size() == 5); // 3! orders, less the current one
  auto inputs = random_inputs(p, 1);
  bool contiguous = false;
  for (const auto& alt : r.alternatives) {
    CAPTURE(print(alt.replacement));
    Expr q = make_lambda(p->params(), rewrite::call1(alt.replacement, rewrite::arg0(p->body())));
    auto kernel = testing::check_kernel(q, inputs);
    contiguous |= alt.params.at("level2") == 0 && store_strides(kernel.source)[0] == 1;
  }
  CHECK(contiguous);
  Val y = input("y", Type::array(f32(), 8));
  Expr one = program({y}, y | map_glb(0, id_fun()));
  CHECK(rule.apply(one->body()->callee(), ctx).why_not.find("single MapGlb level") !=
        std::string::npos);
  CHECK(rule.apply(make_join(), ctx).alternatives.empty());
}

TEST_CASE("the catalog's prolong3d gets the contiguous thread mapping from the enumeration") {
  Expr program = stencils::find_stencil("prolong3d").build({8, 8, 8});
  auto baseline = codegen::generate_kernel(program);
  INFO(baseline.source);
  CHECK(store_strides(baseline.source) == std::array<int64_t, 3>{256, 16, 1}); // as written
  rewrite::EnumerateOptions options;
  options.depth = 1;
  auto variants = explore::executable_variants(program, options);
  MESSAGE("prolong3d: " << variants.summary());
  auto inputs = random_inputs(program, 2);
  int reordered = 0, contiguous = 0;
  for (const auto& v : variants.variants) {
    if (!has_glb_order_step(v))
      continue;
    CAPTURE(print(v.program));
    auto kernel = testing::check_kernel(v.program, inputs, {}, 1e-5);
    ++reordered;
    contiguous += store_strides(kernel.source)[0] == 1;
  }
  CHECK(reordered == 5);
  CHECK(contiguous >= 1);
}

TEST_CASE("the high-level prolongation stores with gid0 on the contiguous dimension") {
  Expr program = prolongation_high_level(4);
  auto inputs = random_inputs(program, 3);
  Expr lowered = rewrite::lower_default(program);
  auto kernel = testing::check_kernel(lowered, inputs, {}, 1e-5);
  CHECK(store_strides(kernel.source) == std::array<int64_t, 3>{1, 8, 64});
  // The explorer's variants: the default first, then the other orders of its global dimensions.
  rewrite::EnumerateOptions options;
  options.depth = 0;
  auto variants = explore::executable_variants(program, options);
  REQUIRE(variants.variants.size() >= 6);
  CHECK_FALSE(has_glb_order_step(variants.variants[0]));
  CHECK(store_strides(codegen::generate_kernel(variants.variants[0].program).source) ==
        std::array<int64_t, 3>{1, 8, 64});
  int reordered = 0;
  for (const auto& v : variants.variants) {
    if (!has_glb_order_step(v))
      continue;
    CAPTURE(print(v.program));
    testing::check_kernel(v.program, inputs, {}, 1e-5);
    ++reordered;
  }
  CHECK(reordered == 5);
}

TEST_CASE("the default lowering gives dimension 0 to the level a transposed result stores "
          "contiguously") {
  auto twice = user_fun("twice", [](auto a) { return a * 2.0; });
  Val x = input("x", array_of(f32(), {8, 16}));
  // [8][16] computed, stored as [16][8]: the outer level is the contiguous one.
  Expr p2 = program({x}, x | map(map(twice)) | transpose());
  auto k2 = testing::check_kernel(rewrite::lower_default(p2), random_inputs(p2, 4));
  CHECK(store_strides(k2.source) == std::array<int64_t, 3>{1, 8, 0});
  // [4][6][8] computed, stored as [4][8][6] and then joined to [32][6].
  Val y = input("y", array_of(f32(), {4, 6, 8}));
  Expr p3 = program({y}, y | map_nd(3, twice) | map(transpose()) | join());
  auto k3 = testing::check_kernel(rewrite::lower_default(p3), random_inputs(p3, 5));
  CHECK(store_strides(k3.source) == std::array<int64_t, 3>{1, 6, 48});
  // Without a rearrangement the innermost level is dimension 0, as before.
  Expr plain = program({y}, y | map_nd(3, twice));
  auto k = testing::check_kernel(rewrite::lower_default(plain), random_inputs(plain, 6));
  CHECK(store_strides(k.source) == std::array<int64_t, 3>{1, 8, 48});
}

TEST_CASE("in a program of kernels each stage's MapGlb nest gets its dimensions by store order") {
  auto twice = user_fun("twice", [](auto a) { return a * 2.0; });
  auto inc = user_fun("inc", [](auto a) { return a + 1.0; });
  Val x = input("x", array_of(f32(), {8, 16}));
  // Two stages: the first stores its [8][16] as computed (its inner level is contiguous), the
  // second computes [8][16] from that buffer and stores it transposed, as [16][8] (its outer
  // level is contiguous, so it gets dimension 0).
  Expr p = program({x}, x | map(map(twice)) | map(map(inc)) | transpose());
  auto kp = testing::check_program(rewrite::lower_default(p), random_inputs(p, 7));
  REQUIRE(kp.launches.size() == 2);
  CHECK(store_strides(kp.kernels[kp.launches[0].kernel].source) ==
        std::array<int64_t, 3>{1, 16, 0});
  CHECK(store_strides(kp.kernels[kp.launches[1].kernel].source) == std::array<int64_t, 3>{1, 8, 0});
  // A transposed read does not move the reader's dimensions: it stores as it computes.
  Expr q = program({x}, x | map(map(twice)) | transpose() | map(map(inc)));
  auto kq = testing::check_program(rewrite::lower_default(q), random_inputs(q, 8));
  REQUIRE(kq.launches.size() == 2);
  CHECK(store_strides(kq.kernels[kq.launches[0].kernel].source) ==
        std::array<int64_t, 3>{1, 16, 0});
  CHECK(store_strides(kq.kernels[kq.launches[1].kernel].source) == std::array<int64_t, 3>{1, 8, 0});
}
