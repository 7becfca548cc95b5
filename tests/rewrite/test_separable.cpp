// separate-axes: a stencil whose weights factor per axis becomes one step per axis. The steps
// run on PoCL and match the interpreter's single step (to rounding) for 2-D and 3-D boxes of
// radius 1-3 under every boundary, alone and fused in one kernel by temporal-tiling; functions
// that are not such weighted sums are refused with a reason.
#include <doctest/doctest.h>

#include <cmath>

#include "codegen/Program.h"
#include "compile/Execute.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "rewrite/Lower.h"
#include "rewrite/rules/Rules.h"
#include "stencils/StarBox.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

RuleResult separated(const Expr& program) {
  TypeChecker types;
  types.apply(program, input_types(program));
  RuleContext ctx;
  ctx.types = &types;
  return separate_axes_rule().apply(program->body(), ctx);
}

std::vector<ArithExpr> extents_of(std::vector<int64_t> sizes) {
  return std::vector<ArithExpr>(sizes.begin(), sizes.end());
}

// A d-D stencil of weights w over the (2r+1)^d window (row-major), the sum divided by 8.
Expr weighted_stencil(const std::vector<int64_t>& sizes, int r, const std::vector<double>& w,
                      Boundary b = clamp) {
  const int d = static_cast<int>(sizes.size());
  Val x = input("x", array_of(f32(), extents_of(sizes)));
  return program({x}, x | pad_nd(d, r, r, b) | slide_nd(d, 2 * r + 1, 1) | map_nd(d, [w](Val n) {
                        return (weighted_sum(n, w) / 8).named("weights");
                      }));
}

struct Case {
  std::vector<int64_t> sizes;
  int r;
  Boundary b;
};

} // namespace

TEST_CASE("separate-axes: separable boxes as one step per axis, on PoCL against the "
          "interpreter, radius 1-3, every boundary") {
  const std::vector<Boundary> boundaries{clamp, mirror, wrap, antisymmetric, constant(0.75f)};
  std::vector<Case> cases;
  for (const Boundary& b : boundaries) {
    cases.push_back({{13, 17}, 1, b});
    cases.push_back({{9, 11}, 3, b});
    cases.push_back({{7, 6, 9}, 2, b});
  }
  cases.push_back({{6, 7, 5}, 1, clamp});
  std::vector<Expr> forms;
  for (const Case& c : cases) {
    Expr program = stencils::star_box_stencil(extents_of(c.sizes), c.r, stencils::Shape::Box, c.b,
                                              /*separable=*/true);
    RuleResult result = separated(program);
    REQUIRE(result.alternatives.size() == 1);
    CHECK(result.alternatives[0].params.at("axes") == static_cast<int64_t>(c.sizes.size()));
    forms.push_back(make_lambda(program->params(), result.alternatives[0].replacement));
  }
  std::vector<codegen::KernelProgram> kernels;
  for (const Expr& form : forms)
    kernels.push_back(codegen::generate_program(lower_default(form)));
  testing::build_together(kernels);
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    CAPTURE(c.sizes.size());
    CAPTURE(c.r);
    CAPTURE(static_cast<int>(c.b.kind));
    Expr program = stencils::star_box_stencil(extents_of(c.sizes), c.r, stencils::Shape::Box, c.b,
                                              /*separable=*/true);
    auto inputs = random_inputs(program, 11 + static_cast<uint64_t>(i));
    Data expected = evaluate(program, inputs);
    double largest = 0;
    for (double v : expected.flatten())
      largest = std::max(largest, std::fabs(v));
    CHECK(largest > 0.1); // real data, not zeros
    INFO(print(forms[i]));
    // One pass a axis, each reading its window's line alone.
    CHECK(kernels[i].launches.size() == c.sizes.size());
    CHECK(explore::max_relative_error(evaluate(forms[i], inputs), expected) <= 1e-5);
    auto run = explore::execute(testing::test_session(), kernels[i], inputs);
    CHECK(explore::max_relative_error(run.output, expected) <= 1e-5);
  }
}

TEST_CASE("separate-axes then temporal-tiling: the passes fused in one kernel, their distinct "
          "functions and constants per layer, on PoCL against the interpreter") {
  const std::vector<Boundary> boundaries{clamp, mirror, wrap, antisymmetric, constant(0.75f)};
  struct Fused {
    Expr program, form;
    int64_t steps;
  };
  std::vector<Fused> fused;
  for (const Boundary& b : boundaries)
    for (std::vector<int64_t> sizes : {std::vector<int64_t>{16, 16}, {8, 8, 16}}) {
      Expr program = stencils::star_box_stencil(extents_of(sizes), 1, stencils::Shape::Box, b,
                                                /*separable=*/true);
      RuleResult passes = separated(program);
      REQUIRE(passes.alternatives.size() == 1);
      Expr separable = make_lambda(program->params(), passes.alternatives[0].replacement);
      TypeChecker types;
      types.apply(separable, input_types(separable));
      RuleContext ctx;
      ctx.types = &types;
      ctx.tile_sizes = {4};
      ctx.temporal_steps = {static_cast<int64_t>(sizes.size())}; // every pass
      RuleResult tiled = temporal_rules().front().apply(separable->body(), ctx);
      INFO(tiled.why_not);
      REQUIRE(!tiled.alternatives.empty());
      for (const auto& alt : tiled.alternatives)
        fused.push_back(
            {program, make_lambda(program->params(), alt.replacement), alt.params.at("steps")});
    }
  std::vector<codegen::KernelProgram> kernels;
  for (const Fused& f : fused)
    kernels.push_back(codegen::generate_program(lower_default(f.form)));
  testing::build_together(kernels);
  for (std::size_t i = 0; i < fused.size(); ++i) {
    INFO(print(fused[i].form));
    auto inputs = random_inputs(fused[i].program, 17 + static_cast<uint64_t>(i));
    Data expected = evaluate(fused[i].program, inputs);
    CHECK(kernels[i].launches.size() == 1); // the passes in one kernel
    CHECK(fused[i].steps >= 2);
    CHECK(explore::max_relative_error(evaluate(fused[i].form, inputs), expected) <= 1e-5);
    auto run = explore::execute(testing::test_session(), kernels[i], inputs);
    CHECK(explore::max_relative_error(run.output, expected) <= 1e-5);
  }
}

TEST_CASE("separate-axes: an axis of one point needs no pass; sums written by hand factor too") {
  // A 3-D window whose weights vary in the x-y plane alone: two passes, the centre plane's.
  std::vector<double> plane;
  for (int k = -1; k <= 1; ++k)
    for (int j = -1; j <= 1; ++j)
      for (int i = -1; i <= 1; ++i)
        plane.push_back(k != 0 ? 0.0 : (2.0 + j * j) * (3.0 + i) * 0.5);
  Expr planar = weighted_stencil({5, 6, 7}, 1, plane, wrap);
  RuleResult result = separated(planar);
  REQUIRE(result.alternatives.size() == 1);
  CHECK(result.alternatives[0].params.at("axes") == 2);
  Expr form = make_lambda(planar->params(), result.alternatives[0].replacement);
  auto inputs = random_inputs(planar, 3);
  CHECK(explore::max_relative_error(evaluate(form, inputs), evaluate(planar, inputs)) <= 1e-5);

  // A 2-D blur written as a difference and sums of points (a - b is a + (-1) b).
  Val x = input("x", array_of(f32(), {ArithExpr(9), ArithExpr(10)}));
  Expr blur = program({x}, x | pad_nd(2, 1, 1, mirror) | slide_nd(2, 3, 1) | map_nd(2, [](Val n) {
                             Val row0 = n.at(0).at(0) + 2.0f * n.at(0).at(1) + n.at(0).at(2);
                             Val row1 = n.at(1).at(0) + 2.0f * n.at(1).at(1) + n.at(1).at(2);
                             Val row2 = n.at(2).at(0) + 2.0f * n.at(2).at(1) + n.at(2).at(2);
                             return ((row0 - row2 * -1.0f) * 2.0f + 4.0f * row1) / 16.0f;
                           }));
  RuleResult hand = separated(blur);
  REQUIRE(hand.alternatives.size() == 1);
  Expr hand_form = make_lambda(blur->params(), hand.alternatives[0].replacement);
  auto blur_inputs = random_inputs(blur, 5);
  CHECK(explore::max_relative_error(evaluate(hand_form, blur_inputs),
                                    evaluate(blur, blur_inputs)) <= 1e-5);

  // Sobel's derivatives, negative weights whose line sums to 0 along one axis, under a constant
  // boundary: the second pass's constant is the first's times its line's sum (4 or 0).
  for (bool along_x : {true, false}) {
    std::vector<double> sobel;
    for (int j = -1; j <= 1; ++j)
      for (int i = -1; i <= 1; ++i)
        sobel.push_back(along_x ? i * (2.0 - j * j) : j * (2.0 - i * i));
    Expr edges = weighted_stencil({8, 9}, 1, sobel, constant(2.5f));
    RuleResult split = separated(edges);
    REQUIRE(split.alternatives.size() == 1);
    Expr split_form = make_lambda(edges->params(), split.alternatives[0].replacement);
    auto edge_inputs = random_inputs(edges, 7);
    Data expected = evaluate(edges, edge_inputs);
    CHECK(expected.flatten().back() != 0); // the corner reads the boundary: not all zeros
    CHECK(explore::max_relative_error(evaluate(split_form, edge_inputs), expected) <= 1e-5);
  }
}

TEST_CASE("separate-axes: refused with a reason where the weights do not factor") {
  auto why = [](const Expr& program) {
    RuleResult r = separated(program);
    CHECK(r.alternatives.empty());
    return r.why_not;
  };
  // The benchmark family's boxes and stars: weights that differ from point to point.
  CHECK(why(stencils::star_box_stencil(extents_of({8, 8}), 2, stencils::Shape::Box, clamp))
            .find("do not factor") != std::string::npos);
  CHECK(why(stencils::star_box_stencil(extents_of({8, 8, 8}), 1, stencils::Shape::Star, clamp))
            .find("do not factor") != std::string::npos);
  // Weights that vary along one axis only.
  std::vector<double> line(9, 0.0);
  line[3] = 1, line[4] = 2, line[5] = 3;
  CHECK(why(weighted_stencil({8, 8}, 1, line)).find("one axis") != std::string::npos);
  // A constant term, and a product of two points: not weighted sums.
  Val x = input("x", array_of(f32(), {ArithExpr(8), ArithExpr(8)}));
  auto windows = [&] { return x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1); };
  Expr affine = program(
      {x}, windows() | map_nd(2, [](Val n) { return n.at(1).at(1) + n.at(0).at(1) + 1.0f; }));
  CHECK(why(affine).find("not a weighted sum") != std::string::npos);
  Expr product =
      program({x}, windows() | map_nd(2, [](Val n) { return n.at(1).at(1) * n.at(0).at(1); }));
  CHECK(why(product).find("not a weighted sum") != std::string::npos);
  // A 1-D stencil.
  Val y = input("y", array_of(f32(), {ArithExpr(16)}));
  Expr one = program({y}, y | pad(1, 1, clamp) | slide(3, 1) |
                              map([](Val n) { return n.at(0) + n.at(1) + n.at(2); }));
  CHECK(why(one).find("1-D") != std::string::npos);
}
