// Antisymmetric padding (the ghost values of a cell-centred homogeneous Dirichlet boundary):
// every executable variant of 1-D, 2-D and 3-D stencils of radius 1 and 2 runs on PoCL and
// matches the interpreter, in f32 and f64; temporal tiling fuses its steps exactly.
#include <doctest/doctest.h>

#include <set>

#include "compile/ExecutableVariants.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "rewrite/Normalize.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

namespace {

// out = 0.5 * centre + sum of the (2r+1)^d window / points + 0.25: not odd, so the halo's values
// are not the negated values of a mirrored computation.
Expr dirichlet_stencil(ScalarKind kind, const std::vector<ArithExpr>& shape, int r) {
  const int d = static_cast<int>(shape.size());
  Type element = Type::scalar(kind);
  Val x = input("x", array_of(element, shape));
  double points = 1;
  for (int i = 0; i < d; ++i)
    points *= 2 * r + 1;
  auto combine = user_fun("combine", [points](auto sum, auto centre) {
    return sum * (1.0 / points) + centre * 0.5 + 0.25;
  });
  Val zero = kind == ScalarKind::F64 ? Val(0.0) : Val(0.0f);
  Fun point([&, d, r, zero](Val w) {
    Val centre = w;
    for (int i = 0; i < d; ++i)
      centre = centre.at(r);
    return combine(w | join_nd(d) | reduce(add_fun(), zero) | at(0), centre);
  });
  return program({x},
                 x | pad_nd(d, r, r, antisymmetric) | slide_nd(d, 2 * r + 1, 1) | map_nd(d, point));
}

// Every executable variant against the interpreter; returns the mappings they used.
std::set<std::string> check_all_variants(const Expr& program, int depth, uint32_t seed,
                                         double tolerance = 1e-5) {
  rewrite::EnumerateOptions options;
  options.depth = depth;
  options.tile_sizes = {2, 4};
  auto variants = explore::executable_variants(program, options);
  MESSAGE(print(program) << ": " << variants.summary());
  REQUIRE(variants.variants.size() > 1);
  auto inputs = random_inputs(program, seed);
  std::set<std::string> mappings;
  testing::build_kernels_together(testing::variant_programs(variants.variants));
  for (const auto& v : variants.variants) {
    CAPTURE(print(v.program));
    testing::check_kernel(v.program, inputs, {}, tolerance);
    REQUIRE(v.mapping);
    mappings.insert(rewrite::describe(*v.mapping));
  }
  return mappings;
}

} // namespace

// In the extended tier (CMakeLists.txt), which the sanitizer build leaves out too: its hundreds
// of kernels go through the host code (enumeration, lowering, generation of every mapping with
// antisymmetric ghosts) that the f64 sweep below runs too.
TEST_CASE("every variant of antisymmetric stencils in 1-D, 2-D and 3-D, radius 1 and 2" *
          doctest::test_suite("extended")) {
  for (int r : {1, 2}) {
    CAPTURE(r);
    check_all_variants(dirichlet_stencil(ScalarKind::F32, {32}, r), 1, 1);
    // Tiles staged in local memory and streaming read the ghosts through the Pad's view too.
    for (const auto& mappings :
         {check_all_variants(dirichlet_stencil(ScalarKind::F32, {8, 8}, r), 1, 2),
          check_all_variants(dirichlet_stencil(ScalarKind::F32, {4, 4, 8}, r), 1, 3)}) {
      CHECK(mappings.count("work-groups, local memory") == 1);
      CHECK(mappings.count("streaming") == 1);
      CHECK(mappings.count("vectorized, 4 results per work-item") == 1);
    }
  }
}

TEST_CASE("f64 antisymmetric stencils generate double-precision kernels that match") {
  for (int r : {1, 2}) {
    CAPTURE(r);
    Expr p2 = dirichlet_stencil(ScalarKind::F64, {8, 8}, r);
    auto kernel = codegen::generate_kernel(rewrite::lower_default(p2));
    INFO(kernel.source);
    CHECK(kernel.source.find("double") != std::string::npos);
    CHECK(kernel.source.find("float") == std::string::npos); // no float literal, type or cast
    // 1/points keeps its 16 digits (an f32-precision literal would be off by ~1e-9).
    CHECK(kernel.source.find(r == 1 ? "0.1111111111111111" : "0.04") != std::string::npos);
    check_all_variants(p2, 1, 4, 1e-13);
  }
  check_all_variants(dirichlet_stencil(ScalarKind::F64, {4, 4, 8}, 1), 1, 5, 1e-13);
}

TEST_CASE("temporal tiling fuses antisymmetric steps exactly, with sign tiles") {
  // f is not odd (an offset): a halo value computed from mirrored input is not the negated one.
  auto f = user_fun("f", [](auto sum, auto centre) { return sum * 0.125 + centre * 0.5 + 0.25; });
  for (int d : {1, 2}) {
    CAPTURE(d);
    std::vector<ArithExpr> shape(static_cast<std::size_t>(d), ArithExpr(8));
    Val x = input("x", array_of(f32(), shape));
    Fun point([&, d](Val w) {
      Val centre = w;
      for (int i = 0; i < d; ++i)
        centre = centre.at(1);
      return f(w | join_nd(d) | reduce(add_fun(), 0.0f) | at(0), centre);
    });
    auto step = [&](Val v) {
      return v | pad_nd(d, 1, 1, antisymmetric) | slide_nd(d, 3, 1) | map_nd(d, point);
    };
    Expr p = rewrite::beta_normalize(program({x}, step(step(step(x)))));
    TypeChecker types;
    types.apply(p, input_types(p));
    rewrite::RuleContext ctx;
    ctx.types = &types;
    ctx.tile_sizes = {2, 4};
    ctx.temporal_steps = {2, 3};
    auto result = rewrite::temporal_rules().front().apply(p->body(), ctx);
    REQUIRE_FALSE(result.alternatives.empty());
    auto inputs = random_inputs(p, 7);
    auto expected = evaluate(p, inputs).flatten();
    for (const auto& alt : result.alternatives) {
      CAPTURE(alt.params.at("steps"));
      CAPTURE(alt.params.at("tile"));
      Expr fused = make_lambda(p->params(), alt.replacement);
      CHECK(evaluate(fused, inputs).flatten() == expected); // bit-identical
    }
  }
  // The lowered kernels of the fused variants on PoCL.
  Val x = input("x", array_of(f32(), {8, 8}));
  Fun point(
      [&](Val w) { return f(w | join_nd(2) | reduce(add_fun(), 0.0f) | at(0), w.at(1).at(1)); });
  auto step = [&](Val v) {
    return v | pad_nd(2, 1, 1, antisymmetric) | slide_nd(2, 3, 1) | map_nd(2, point);
  };
  Expr p = rewrite::beta_normalize(program({x}, step(step(x))));
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {4};
  options.temporal_steps = {2};
  auto variants = explore::executable_variants(p, options);
  auto inputs = random_inputs(p, 8);
  int fused = 0;
  for (const auto& v : variants.variants) {
    if (v.history.empty() || v.history.front().rule != "temporal-tiling")
      continue;
    CAPTURE(print(v.program));
    testing::check_kernel(v.program, inputs, {}, 1e-5);
    ++fused;
  }
  CHECK(fused >= 2); // work-groups with local memory and the others
}
