// The executable variants of catalog stencils: every one type-checks, and a seeded sample
// generates kernels that build on PoCL and match the interpreter. The sample size is 24 in CI;
// TESSERA_VARIANT_SAMPLE=200 (or more) checks more by hand.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <random>

#include "compile/ExecutableVariants.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "rewrite/Enumerate.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

namespace {

std::size_t sample_size() {
  const char* env = std::getenv("TESSERA_VARIANT_SAMPLE");
  return env ? static_cast<std::size_t>(std::atoi(env)) : 24;
}

void check_variants(const std::string& stencil, const std::vector<ArithExpr>& extents, int depth,
                    uint32_t seed) {
  Expr program = stencils::find_stencil(stencil).build(extents);
  rewrite::EnumerateOptions options;
  options.depth = depth;
  options.tile_sizes = {2, 4, 8};
  auto variants = explore::executable_variants(program, options);
  MESSAGE(stencil << ": " << variants.variants.size() << " executable variants from "
                  << variants.stats.summary() << ", " << variants.rejected_by_codegen
                  << " rejected by the code generator");
  REQUIRE(variants.variants.size() > 1);
  for (const auto& v : variants.variants)
    CHECK_NOTHROW(infer_type(v.program));
  std::vector<std::size_t> order(variants.variants.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::mt19937 rng(seed);
  std::shuffle(order.begin() + 1, order.end(), rng); // the baseline (0) always runs
  order.resize(std::min(order.size(), sample_size()));
  auto inputs = random_inputs(program, seed);
  std::vector<Expr> sampled;
  for (std::size_t i : order)
    sampled.push_back(variants.variants[i].program);
  testing::build_kernels_together(sampled);
  for (std::size_t i : order) {
    CAPTURE(i);
    CAPTURE(print(variants.variants[i].program));
    testing::check_kernel(variants.variants[i].program, inputs, {}, 1e-5);
  }
}

} // namespace

TEST_CASE("variants of the 2-D 5-point and 3-D 7-point stencils run correctly on PoCL") {
  check_variants("j2d5pt", {16, 16}, 2, 1);
  check_variants("j3d7pt", {8, 8, 8}, 1, 2);
}

TEST_CASE("enumeration to depth 6 with every rule reports its count and limits") {
  Expr program = stencils::find_stencil("j2d5pt").build({16, 16});
  rewrite::EnumerateOptions options;
  options.depth = 6;
  options.limit = 5000;
  auto e = rewrite::enumerate(program, rewrite::all_rules(), options);
  MESSAGE("j2d5pt, all rules, depth 6: " << e.stats.summary());
  CHECK(e.variants.size() == 5000);
  CHECK(e.stats.stop == StopReason::Limit);
  CHECK(e.stats.ill_typed == 0);
  // Every variant keeps its derivation, which replays to the same program.
  const auto& last = e.variants.back();
  CHECK(!last.history.empty());
  rewrite::RuleContext ctx;
  ctx.tile_sizes = options.tile_sizes;
  Expr replayed =
      rewrite::replay(e.variants.front().program, last.history, rewrite::all_rules(), ctx);
  CHECK(structurally_equal(replayed, last.program));
}
