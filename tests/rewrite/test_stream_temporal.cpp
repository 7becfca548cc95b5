// stream-temporal (2.5-D blocking): the fused kernels of k steps run on PoCL and match the
// interpreter's unfused steps, for radius 1 and 2, every boundary, k = 2..8 and grids that the
// tiles do not divide; the primitive's own semantics agree with the unfused program exactly.
#include <doctest/doctest.h>

#include "codegen/Program.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "explore/Execute.h"
#include "rewrite/Variants.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/rewrite/StreamTemporalCases.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

const std::vector<Boundary>& all_boundaries() {
  static const std::vector<Boundary> b{clamp, mirror, wrap, antisymmetric, constant(0.75f)};
  return b;
}

// Every fused form of `program` (k steps) generated, run on PoCL and compared with the
// unfused program under the interpreter; returns how many were checked.
int check_fused_forms(const Expr& program, int k, const std::vector<int64_t>& tiles) {
  auto forms = testing::stream_temporal_forms(program, k, tiles);
  auto inputs = random_inputs(program, 7);
  Data expected = evaluate(program, inputs);
  bool any_nonzero = false;
  for (double v : expected.flatten())
    any_nonzero |= v != 0;
  CHECK(any_nonzero);
  int checked = 0;
  for (const auto& form : forms) {
    Expr fused = make_lambda(program->params(), form.replacement);
    CAPTURE(print(fused));
    // The primitive's reference semantics: the same operations in the same order.
    CHECK(evaluate(fused, inputs).flatten() == expected.flatten());
    codegen::KernelProgram kernels = codegen::generate_program(fused);
    auto run = explore::execute(testing::test_session(), kernels, inputs);
    INFO(kernels.kernels.front().source);
    CHECK(explore::max_relative_error(run.output, expected) <= 1e-5);
    ++checked;
  }
  return checked;
}

} // namespace

TEST_CASE("stream-temporal 2-D: radius 1 and 2, every boundary, k = 2..8, partial tiles") {
  for (int r : {1, 2})
    for (const Boundary& b : all_boundaries())
      for (int k = 2; k <= 8; ++k) {
        // Mirror, antisymmetric and wrap reflect once: the grid is at least k*r wide.
        std::vector<ArithExpr> extents{ArithExpr(2 * k * r + 3), ArithExpr(2 * k * r + 5)};
        bool rhs = k % 2 == 0; // a right-hand side in every other case
        CAPTURE(r);
        CAPTURE(b.to_string());
        CAPTURE(k);
        Expr program = testing::iterated_test_stencil(2, r, b, k, extents, rhs);
        // Tiles of 4*3 = 12 do not divide the width; segments of 4kr+ do not divide the height.
        CHECK(check_fused_forms(program, k, {3, 4 * k * r}) >= 2);
      }
}

TEST_CASE("stream-temporal 3-D: radius 1 and 2, every boundary, partial tiles and segments") {
  for (int r : {1, 2})
    for (const Boundary& b : all_boundaries())
      for (int k : {2, 3}) {
        if (r == 2 && k == 3 && b.kind != Boundary::Mirror)
          continue; // the deepest reach once, with the reflecting boundary
        int64_t n = std::max<int64_t>(7, k * r + 1);
        std::vector<ArithExpr> extents{ArithExpr(n + 2 * k * r), ArithExpr(n), ArithExpr(n + 2)};
        CAPTURE(r);
        CAPTURE(b.to_string());
        CAPTURE(k);
        Expr program = testing::iterated_test_stencil(3, r, b, k, extents, k == 2);
        CHECK(check_fused_forms(program, k, {2, 3, 4 * k * r}) >= 2);
      }
}

TEST_CASE("stream-temporal is one of the explored variants of an iterated stencil") {
  Expr program = testing::iterated_test_stencil(3, 1, clamp, 2, {12, 8, 8}, false);
  EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {4};
  options.temporal_steps = {2};
  auto variants = lowered_variants(program, options);
  int streamed = 0;
  for (const auto& v : variants.variants)
    for (const auto& s : v.history)
      streamed += s.rule == "stream-temporal";
  CHECK(streamed >= 2); // tiles 4x4 and 4x16 (capped by the grid: 4x4 only), whole and segments
}

TEST_CASE("stream-temporal explains why it does not apply") {
  Expr one = testing::iterated_test_stencil(2, 1, clamp, 1, {16, 16}, false);
  TypeChecker types;
  types.apply(one, input_types(one));
  RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = {4};
  ctx.temporal_steps = {2};
  auto single = stream_temporal_rule().apply(one->body(), ctx);
  CHECK(single.alternatives.empty());
  CHECK(single.why_not.find("single stencil step") != std::string::npos);
  Expr small = testing::iterated_test_stencil(2, 2, mirror, 4, {6, 16}, false);
  ctx.temporal_steps = {4};
  TypeChecker small_types;
  small_types.apply(small, input_types(small));
  ctx.types = &small_types;
  auto reach = stream_temporal_rule().apply(small->body(), ctx);
  CHECK(reach.alternatives.empty());
  CHECK(reach.why_not.find("k*r") != std::string::npos);
}

TEST_CASE("StreamSteps rejects malformed parameters with a message") {
  Expr f = make_lambda({make_param()}, make_literal(ScalarValue::make(ScalarKind::F32, 1)));
  CHECK_THROWS_WITH_AS(make_stream_steps(1, 2, 1, clamp, {}, 0, f), doctest::Contains("2-D or 3-D"),
                       Error);
  CHECK_THROWS_WITH_AS(make_stream_steps(3, 2, 1, clamp, {4}, 0, f),
                       doctest::Contains("need 2 tile size(s), got 1"), Error);
  CHECK_THROWS_WITH_AS(make_stream_steps(2, 0, 1, clamp, {4}, 0, f),
                       doctest::Contains("at least one step"), Error);
}
