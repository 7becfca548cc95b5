// Partial sums by plane (stream-nd sums=1: rewrite/rules/PlaneSums.h, codegen/StreamSums.cpp) on
// the star and box stencils of radius 1-4 (stencils/StarBox.h), 2-D and 3-D, under three
// boundaries: every kernel matches the interpreter on random data, and its march loads one plane
// (row) of the window per step, each value once, into partial sums.
#include <doctest/doctest.h>

#include <tuple>

#include "core/RandomData.h"
#include "primitives/TypeCheck.h"
#include "rewrite/MapLevels.h"
#include "rewrite/Normalize.h"
#include "rewrite/Rule.h"
#include "rewrite/rules/PlaneSums.h"
#include "rewrite/rules/Rules.h"
#include "stencils/StarBox.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/rewrite/MarchCheck.h"

using namespace tessera;
using stencils::Shape;

namespace {

// The lowered sums=1 alternatives of stream-nd at the program's computing map (position [1]),
// with their parameters: 2-D segments of 4 and 8 rows, 3-D segments of 4 and whole columns;
// with `rows` (3-D) also those blocked by each of them along y, with `factors` (2-D) those
// blocked along x.
std::vector<std::pair<Expr, rewrite::Params>>
plane_sum_variants(const Expr& written, std::vector<int64_t> rows = {},
                   std::vector<int64_t> segments = {4, 8}, std::vector<int64_t> factors = {}) {
  const Expr program = rewrite::beta_normalize(written); // as the enumeration sees it
  TypeChecker types;
  types.apply(program, input_types(program));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = std::move(segments);
  ctx.row_blocking = std::move(rows);
  ctx.coarsening = std::move(factors);
  ctx.plane_sums_min_points = 0; // the small stencils too
  const rewrite::Rule rule = rewrite::stream_nd_rule();
  const rewrite::Position at{1};
  auto result = rule.apply(rewrite::node_at(program, at), ctx);
  std::vector<std::pair<Expr, rewrite::Params>> out;
  for (const auto& alt : result.alternatives)
    if (alt.params.count("sums"))
      out.emplace_back(rewrite::apply_mapping(rewrite::replace_at(program, at, alt.replacement),
                                              rule.mapping.streaming(alt.params)),
                       alt.params);
  return out;
}

// The loads of one step of a kernel's march: the window's source `x` read between the loop
// that follows the partial sums' declaration and the loop's store.
std::size_t march_loads(const std::string& source) {
  auto loop = source.find("for (", source.find("float acc"));
  auto store = source.find("out[", loop);
  REQUIRE(loop != std::string::npos);
  REQUIRE(store != std::string::npos);
  return testing::loaded_values(source.substr(loop, store - loop));
}

std::vector<ArithExpr> extents_for(int dims) {
  if (dims == 2)
    return {16, 12};
  return {8, 6, 7}; // z marched: 8 planes, whole or in segments of 4
}

} // namespace

TEST_CASE("partial sums by plane: star and box stencils of radius 1-4 in 2-D and 3-D, three "
          "boundaries, match the interpreter and load each plane once") {
  int checked = 0;
  testing::with_kernels_built_together(testing::test_session(), [&] {
    checked = 0; // each of the two passes counts them all
    for (int dims : {2, 3})
      for (Shape shape : {Shape::Star, Shape::Box})
        for (int r = 1; r <= 4; ++r)
          for (Boundary boundary : {clamp, mirror, wrap}) {
            // The 343- and 729-point boxes build slowly on PoCL: one boundary for them.
            if (dims == 3 && shape == Shape::Box && r >= 3 && boundary.kind != Boundary::Clamp)
              continue;
            Expr program = stencils::star_box_stencil(extents_for(dims), r, shape, boundary);
            CAPTURE(stencils::star_box_name(dims, r, shape));
            CAPTURE(boundary.to_string());
            auto variants = plane_sum_variants(program);
            REQUIRE(variants.size() == 2);
            auto inputs = random_inputs(program, static_cast<uint32_t>(dims * 100 + r));
            // The first of them (segments of 4 planes or rows)
            auto& [lowered, params] = variants.front();
            CAPTURE(print(lowered));
            auto kernel = testing::check_kernel(lowered, inputs, {}, 1e-5);
            const std::string& source = kernel.source;
            CHECK(source.find("float acc") != std::string::npos);
            // The march loads one plane (row) of the window a step.
            const std::size_t side = 2 * static_cast<std::size_t>(r) + 1;
            CHECK(march_loads(source) == (dims == 3 ? side * side : side));
            ++checked;
          }
  });
  CHECK(checked == 44);
}

TEST_CASE("partial sums by plane: the second variant of each (whole columns in 3-D) matches too") {
  testing::with_kernels_built_together(testing::test_session(), [] {
    for (int dims : {2, 3})
      for (int r : {1, 2}) {
        Expr program = stencils::star_box_stencil(extents_for(dims), r, Shape::Box, clamp);
        auto variants = plane_sum_variants(program);
        REQUIRE(variants.size() == 2);
        CAPTURE(print(variants.back().first));
        testing::check_kernel(variants.back().first, random_inputs(program, 5), {}, 1e-5);
      }
  });
}

namespace {

// Checks the blocked variants of each (shape, radius, boundary) case against the interpreter on
// a z6 y8 x5 grid (no extent a multiple of another): whole columns blocked by 4 rows, and for
// radius 2 or less under clamp segments of 3 planes blocked by 2. Each march loads the n + c - 1
// rows of one plane once for its c results. Returns the number of kernels checked.
int check_blocked_sums(const std::vector<std::tuple<Shape, int, Boundary>>& cases) {
  int checked = 0;
  testing::with_kernels_built_together(testing::test_session(), [&] {
    checked = 0; // each of the two passes counts them all
    for (const auto& [shape, r, boundary] : cases) {
      Expr program = stencils::star_box_stencil({6, 8, 5}, r, shape, boundary);
      CAPTURE(stencils::star_box_name(3, r, shape));
      CAPTURE(boundary.to_string());
      auto inputs = random_inputs(program, static_cast<uint32_t>(300 + r));
      for (auto& [lowered, params] : plane_sum_variants(program, {2, 4}, {3})) {
        if (!params.count("rows"))
          continue;
        const int64_t rows = params.at("rows");
        const bool segmented = params.count("segment") > 0;
        if (segmented != (rows == 2) || (segmented && (r > 2 || boundary.kind != Boundary::Clamp)))
          continue;
        CAPTURE(print(lowered));
        auto kernel = testing::check_kernel(lowered, inputs, {}, 1e-5);
        const std::size_t side = 2 * static_cast<std::size_t>(r) + 1;
        CHECK(march_loads(kernel.source) == (side + static_cast<std::size_t>(rows) - 1) * side);
        ++checked;
      }
    }
  });
  return checked;
}

} // namespace

TEST_CASE("partial sums by plane blocked along y: c results a work-item share their planes' "
          "rows, stars of radius 1-4 and boxes of radius 1-2, three boundaries, match the "
          "interpreter") {
  std::vector<std::tuple<Shape, int, Boundary>> cases;
  for (Boundary boundary : {clamp, mirror, wrap}) {
    for (int r = 1; r <= 4; ++r)
      cases.emplace_back(Shape::Star, r, boundary);
    for (int r = 1; r <= 2; ++r)
      cases.emplace_back(Shape::Box, r, boundary);
  }
  CHECK(check_blocked_sums(cases) == 18 + 4);
}

namespace {

// Checks the marches blocked along x of the star and box stencils (2-D: radius 1-4, y 10 in
// segments of 5, x 12; 3-D: stars of radius 1-4 and boxes of radius 1-2, z 6 in segments of 3, y
// 5, x 8) under `boundaries`: 2 results a step, and 4 under clamp, against the interpreter, each
// step loading its row's (plane's rows') n + c - 1 values once. Returns the kernels checked.
int check_sums_along_x(int dims, const std::vector<Boundary>& boundaries) {
  int checked = 0;
  testing::with_kernels_built_together(testing::test_session(), [&] {
    checked = 0; // each of the two passes counts them all
    for (Shape shape : {Shape::Star, Shape::Box})
      for (int r = 1; r <= (dims == 3 && shape == Shape::Box ? 2 : 4); ++r)
        for (const Boundary& boundary : boundaries) {
          Expr program = dims == 2 ? stencils::star_box_stencil({10, 12}, r, shape, boundary)
                                   : stencils::star_box_stencil({6, 5, 8}, r, shape, boundary);
          CAPTURE(stencils::star_box_name(dims, r, shape));
          CAPTURE(boundary.to_string());
          auto inputs = random_inputs(program, static_cast<uint32_t>(dims * 100 + r));
          const std::vector<int64_t> segments{dims == 2 ? 5 : 3};
          for (auto& [lowered, params] : plane_sum_variants(program, {}, segments, {2, 4})) {
            const int64_t factor = params.count("factor") ? params.at("factor") : 1;
            if (factor == 1 || !params.count("segment") ||
                (factor == 4 && boundary.kind != Boundary::Clamp))
              continue;
            CAPTURE(print(lowered));
            auto kernel = testing::check_kernel(lowered, inputs, {}, 1e-5);
            const auto side = static_cast<std::size_t>(2 * r + 1);
            const std::size_t run = side + static_cast<std::size_t>(factor) - 1;
            CHECK(march_loads(kernel.source) == (dims == 2 ? run : side * run));
            // The interior reads the rows' aligned runs as vectors (the boundary one value at
            // a time): the interpreter check above covers both.
            CHECK(kernel.source.find(cat("(*(const __global float", factor, "*)(x + (")) !=
                  std::string::npos);
            ++checked;
          }
        }
  });
  return checked;
}

} // namespace

TEST_CASE("partial sums by row blocked along x (2-D): c results a work-item share their rows' "
          "n + c - 1 values, stars and boxes of radius 1-4, clamp and mirror, match the "
          "interpreter") {
  CHECK(check_sums_along_x(2, {clamp, mirror}) == 16 + 8); // factor 2; 4 under clamp
}

TEST_CASE("partial sums by plane blocked along x (3-D): c results a work-item share their "
          "planes' rows, stars of radius 1-4 and boxes of radius 1-2, clamp and mirror, match "
          "the interpreter") {
  CHECK(check_sums_along_x(3, {clamp, mirror}) == 12 + 6);
}

TEST_CASE("partial sums blocked along x under wrap, 2-D and 3-D" *
          doctest::test_suite("extended")) {
  CHECK(check_sums_along_x(2, {wrap}) == 8);
  CHECK(check_sums_along_x(3, {wrap}) == 6);
}

// The 125-point box blocked along x at 16^3, whose interior reads its rows as aligned float2
// (codegen/KernelIR.h, Piece::row_loads: each component assigned on its own; PoCL 3.1
// miscompiled the vstore2 form in a variant blocked along both x and y, no longer offered).
TEST_CASE("partial sums blocked along x: the 125-point box at 16^3, 2 results a step, segments "
          "of 4, matches the interpreter on PoCL") {
  Expr program = stencils::star_box_stencil({16, 16, 16}, 2, Shape::Box, clamp);
  int checked = 0;
  for (auto& [lowered, params] : plane_sum_variants(program, {}, {4}, {2}))
    if (params.count("factor") && params.count("segment")) {
      auto kernel = testing::check_kernel(lowered, random_inputs(program, 3), {}, 1e-5);
      CHECK(kernel.source.find("float2*)(x + (") != std::string::npos);
      ++checked;
    }
  CHECK(checked == 1);
}

// The 343- and 729-point boxes build slowly on PoCL (about 12 s of the default tier's 20).
TEST_CASE("partial sums by plane blocked along y: the boxes of radius 3 and 4" *
          doctest::test_suite("extended")) {
  CHECK(check_blocked_sums({{Shape::Box, 3, clamp}, {Shape::Box, 4, clamp}}) == 2);
}

TEST_CASE("split by plane: what it splits, and why not") {
  Val x = input("x", array_of(f32(), {8, 8}));
  auto window_function = [&](const std::function<Val(Val)>& point) {
    Expr p = rewrite::beta_normalize(
        program({x}, x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, Fun(point))));
    Expr f = p->body();
    while (f->kind == NodeKind::Call)
      f = f->callee();
    while (f->kind == NodeKind::Map)
      f = f->children[0];
    return f;
  };
  // A sum whose terms each read one row, with a difference and an outer scaling.
  Expr sum = window_function([](Val w) {
    return ((w.at(0).at(1) * 2 + w.at(1).at(0) - w.at(1).at(2) * w.at(1).at(1) + w.at(2).at(1)) / 4)
        .named("sum");
  });
  auto split = rewrite::split_by_plane(sum);
  REQUIRE(split.function);
  CHECK(print(split.function).find("sum_planes(sum_p0(") != std::string::npos);
  CHECK(print(split.function).find("sum_scale(") != std::string::npos);
  // A product of two rows cannot be split.
  Expr product = window_function(
      [](Val w) { return (w.at(0).at(1) * w.at(2).at(1) + w.at(1).at(1)).named("product"); });
  CHECK(rewrite::split_by_plane(product).why.find("reads points of 2 planes") != std::string::npos);
  // A function of one row has nothing to share.
  Expr row = window_function([](Val w) { return (w.at(1).at(0) + w.at(1).at(2)).named("row"); });
  CHECK(rewrite::split_by_plane(row).why.find("fewer than two planes") != std::string::npos);
}
