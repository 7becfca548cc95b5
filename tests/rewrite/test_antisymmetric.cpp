// Antisymmetric padding (the ghost values of a cell-centred homogeneous Dirichlet boundary):
// every executable variant of 1-D, 2-D and 3-D stencils of radius 1 and 2 runs on PoCL and
// matches the interpreter, in f32 and f64; temporal tiling refuses it with its reason.
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
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

// Every executable variant against the interpreter; returns how many ran.
std::size_t check_all_variants(const Expr& program, int depth, uint32_t seed) {
  rewrite::EnumerateOptions options;
  options.depth = depth;
  options.tile_sizes = {2, 4};
  auto variants = rewrite::lowered_variants(program, options);
  MESSAGE(print(program) << ": " << variants.summary());
  REQUIRE(variants.variants.size() > 1);
  auto inputs = random_inputs(program, seed);
  for (const auto& v : variants.variants) {
    CAPTURE(print(v.program));
    testing::check_kernel(v.program, inputs, {}, 1e-5);
  }
  return variants.variants.size();
}

} // namespace

TEST_CASE("every variant of antisymmetric stencils in 1-D, 2-D and 3-D, radius 1 and 2") {
  for (int r : {1, 2}) {
    CAPTURE(r);
    check_all_variants(dirichlet_stencil(ScalarKind::F32, {32}, r), 1, 1);
    check_all_variants(dirichlet_stencil(ScalarKind::F32, {8, 8}, r), 1, 2);
    check_all_variants(dirichlet_stencil(ScalarKind::F32, {4, 4, 8}, r), 1, 3);
  }
}

TEST_CASE("f64 antisymmetric stencils generate double-precision kernels that match") {
  for (int r : {1, 2}) {
    CAPTURE(r);
    Expr p2 = dirichlet_stencil(ScalarKind::F64, {8, 8}, r);
    auto kernel = codegen::generate_kernel(p2);
    INFO(kernel.source);
    CHECK(kernel.source.find("double") != std::string::npos);
    CHECK(kernel.source.find("float") == std::string::npos); // no float literal, type or cast
    check_all_variants(p2, 1, 4);
  }
  check_all_variants(dirichlet_stencil(ScalarKind::F64, {4, 4, 8}, 1), 1, 5);
}

TEST_CASE("temporal tiling refuses antisymmetric padding and says why") {
  Val x = input("x", Type::array(f32(), 16));
  Fun mean([](Val w) {
    auto third = user_fun("third", [](auto a) { return a * (1.0 / 3.0); });
    return third((w | reduce(add_fun(), 0.0f)).at(0));
  });
  auto step = [&](Val v) { return v | pad(1, 1, antisymmetric) | slide(3, 1) | map(mean); };
  Expr p = rewrite::beta_normalize(program({x}, step(step(x))));
  TypeChecker types;
  types.apply(p, input_types(p));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = {4};
  ctx.temporal_steps = {2};
  auto result = rewrite::temporal_rules().front().apply(p->body(), ctx);
  CHECK(result.alternatives.empty());
  CHECK(result.why_not.find("antisymmetric") != std::string::npos);
  CHECK(result.why_not.find("odd") != std::string::npos);
  // The same program with mirror padding is fused.
  auto mirrored = [&](Val v) { return v | pad(1, 1, mirror) | slide(3, 1) | map(mean); };
  Expr q = rewrite::beta_normalize(program({x}, mirrored(mirrored(x))));
  TypeChecker qtypes;
  qtypes.apply(q, input_types(q));
  ctx.types = &qtypes;
  CHECK_FALSE(rewrite::temporal_rules().front().apply(q->body(), ctx).alternatives.empty());
}
