// Thread coarsening along each dimension: the coarsened kernels of catalog stencils run on PoCL
// and match the interpreter, each work-item computing c results of the chosen dimension.
#include <doctest/doctest.h>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "rewrite/Normalize.h"
#include "rewrite/Rule.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using namespace tessera::rewrite;

TEST_CASE("coarsen-nd: c results of any one dimension per work-item") {
  const Rule rule = coarsening_rules().front();
  for (auto [name, extents] : {std::pair<std::string, std::vector<ArithExpr>>{"j1d3pt", {32}},
                               {"j2d5pt", {16, 12}},
                               {"j3d7pt", {8, 6, 4}}}) {
    CAPTURE(name);
    Expr program = beta_normalize(stencils::find_stencil(name).build(extents));
    TypeChecker types;
    types.apply(program, input_types(program));
    RuleContext ctx;
    ctx.types = &types;
    ctx.coarsening = {2, 4, 5};
    auto r = rule.apply(program, ctx);
    // Every dimension with every factor that divides it (5 divides none of the extents), in
    // both layouts.
    std::size_t expected = 0;
    for (const auto& n : extents)
      for (int64_t c : {2, 4})
        expected += 2 * (n.value() % c == 0 && c < n.value());
    CHECK(r.alternatives.size() == expected);
    auto inputs = random_inputs(program, 8);
    testing::build_kernels_together(testing::replacements(r.alternatives));
    for (const auto& alt : r.alternatives) {
      CAPTURE(alt.params.at("dim"));
      CAPTURE(alt.params.at("factor"));
      const bool interleaved = alt.params.count("interleaved") > 0;
      CAPTURE(interleaved);
      auto kernel = testing::check_kernel(alt.replacement, inputs, {}, 1e-6);
      CHECK(kernel.source.find("for (int") != std::string::npos); // the sequential results
      CHECK(print(alt.replacement).find("Split(") != std::string::npos);
      if (name == "j1d3pt" && alt.params.at("factor") == 2) {
        // Work-item g stores results g and g + 16 (interleaved), or 2g and 2g + 1 (blocked).
        INFO(kernel.source);
        CHECK(kernel.source.find(interleaved ? "out[gid0 + 16 * i" : "out[2 * gid0 + i") !=
              std::string::npos);
      }
    }
  }
  // 7 results: no factor divides them, so each factor below 7 takes a remainder (the level
  // padded to its next multiple, the padding's results not stored), in both layouts, exact.
  Expr odd = beta_normalize(stencils::find_stencil("j1d3pt").build({7}));
  TypeChecker types;
  types.apply(odd, input_types(odd));
  RuleContext ctx;
  ctx.types = &types;
  ctx.coarsening = {2, 4, 8};
  auto padded = rule.apply(odd, ctx);
  CHECK(padded.alternatives.size() == 4); // factors 2 and 4 (8 is not below 7), two layouts
  auto inputs = random_inputs(odd, 8);
  testing::build_kernels_together(testing::replacements(padded.alternatives));
  for (const auto& alt : padded.alternatives) {
    CAPTURE(alt.params.at("factor"));
    CHECK(print(alt.replacement).find("Drop(") != std::string::npos);
    testing::check_kernel(alt.replacement, inputs, {}, 1e-6);
  }
  // A symbolic length gives no constant to pad to: refused, saying why.
  Expr symbolic =
      beta_normalize(stencils::find_stencil("j1d3pt").build({ArithExpr::size_var("N")}));
  TypeChecker symbolic_types;
  symbolic_types.apply(symbolic, input_types(symbolic));
  ctx.types = &symbolic_types;
  auto none = rule.apply(symbolic, ctx);
  CHECK(none.alternatives.empty());
  CHECK(none.why_not.find("divides") != std::string::npos);
}
