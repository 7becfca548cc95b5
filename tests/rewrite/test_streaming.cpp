// stream-nd among the executable variants: the 2.5-D streaming variants of the 3-D 7-point
// stencil (whole columns and z-segments) and the column marching of the 2-D 5-point stencil.
// Their kernels read like hand-written ones: inside the march, a work-item loads one new plane
// (row) of its window, each element once, and rotates the window in registers. Every kernel is
// checked against the interpreter on PoCL.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <utility>

#include "compile/ExecutableVariants.h"
#include "core/Error.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Variants.h"
#include "stencils/Catalog.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/rewrite/MarchCheck.h"

using namespace tessera;

namespace {

using testing::count;
using testing::first_march;
using testing::March;

rewrite::LoweredVariants depth1_variants(const Expr& program) {
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {4, 8, 16};
  return explore::executable_variants(program, options);
}

// Lowers `program` at depth 1 (segments of 4, 1 or 2 results along x) and checks each streaming
// variant's kernel against the interpreter on PoCL; returns how many there were.
int check_streamed_variants(const Expr& program, uint32_t seed) {
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {4};
  options.coarsening = {2};
  auto lowered = explore::executable_variants(program, options);
  auto inputs = random_inputs(program, seed);
  std::vector<Expr> programs;
  for (const auto& v : lowered.variants)
    if (std::any_of(v.history.begin(), v.history.end(),
                    [](const rewrite::Step& s) { return s.rule == "stream-nd"; }))
      programs.push_back(v.program);
  testing::build_kernels_together(programs);
  for (const Expr& p : programs) {
    CAPTURE(print(p));
    testing::check_kernel(p, inputs, {}, 1e-5);
  }
  return static_cast<int>(programs.size());
}

// Checks every streaming variant of `stencil` (window n): it matches the interpreter, loads one
// new plane (row) of its window per step of its march, each element once (n^(d-1) elements; n
// x (n+c-1) with c results along x per work-item), and nothing else in the loop, and rotates
// its window. Returns the (segment, factor) pairs seen (0: whole columns, 1: one result).
std::set<std::pair<int64_t, int64_t>>
check_streaming(const std::string& stencil, const std::vector<ArithExpr>& extents, std::size_t n) {
  Expr program = stencils::find_stencil(stencil).build(extents);
  auto lowered = depth1_variants(program);
  auto inputs = random_inputs(program, 3);
  std::set<std::pair<int64_t, int64_t>> seen;
  std::vector<Expr> streamed;
  for (const auto& v : lowered.variants)
    if (std::any_of(v.history.begin(), v.history.end(),
                    [](const rewrite::Step& s) { return s.rule == "stream-nd"; }))
      streamed.push_back(v.program);
  testing::build_kernels_together(streamed);
  for (const auto& v : lowered.variants) {
    auto step = std::find_if(v.history.begin(), v.history.end(),
                             [](const rewrite::Step& s) { return s.rule == "stream-nd"; });
    if (step == v.history.end())
      continue;
    CAPTURE(print(v.program));
    auto param = [&](const char* key, int64_t fallback) {
      auto it = step->params.find(key);
      return it == step->params.end() ? fallback : it->second;
    };
    int64_t factor = param("factor", 1);
    seen.insert({param("segment", 0), factor});
    auto kernel = testing::check_kernel(v.program, inputs, {}, 1e-5);
    March march = first_march(kernel.source);
    const std::size_t run = n + static_cast<std::size_t>(factor) - 1; // values along x
    std::size_t per_step = extents.size() == 3 ? n * run : run;
    CHECK(testing::loaded_values(march.loads) == per_step); // one new plane (row) per step
    CHECK(testing::loaded_values(march.rest) == 0);
    CHECK(march.rest.find(march.window + "[0] = " + march.window + "[") !=
          std::string::npos); // the window rotates in registers
  }
  return seen;
}

} // namespace

TEST_CASE("stream-nd: 2.5-D streaming of the 3-D 7-point stencil: whole columns or z-segments, "
          "1, 2 or 4 results along x per work-item") {
  auto seen = check_streaming("j3d7pt", {32, 32, 32}, 3);
  std::set<std::pair<int64_t, int64_t>> expected;
  for (int64_t segment : {0, 4, 8, 16})
    for (int64_t factor : {1, 2, 4})
      expected.insert({segment, factor});
  CHECK(seen == expected);
}

TEST_CASE("stream-nd: column marching of the 2-D 5-point stencil in segments of rows, 1, 2 or "
          "4 results along x per work-item") {
  auto seen = check_streaming("j2d5pt", {32, 32}, 3);
  std::set<std::pair<int64_t, int64_t>> expected;
  for (int64_t segment : {4, 8, 16})
    for (int64_t factor : {1, 2, 4})
      expected.insert({segment, factor});
  CHECK(seen == expected);
}

TEST_CASE("stream-nd in 2-D: no results along x on a CPU") {
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {4, 8};
  options.target.kind = DeviceKind::CPU;
  auto lowered =
      explore::executable_variants(stencils::find_stencil("j2d5pt").build({32, 32}), options);
  int streamed = 0;
  for (const auto& v : lowered.variants)
    for (const auto& s : v.history)
      if (s.rule == "stream-nd") {
        CHECK(s.params.count("factor") == 0);
        ++streamed;
      }
  CHECK(streamed == 2);
}

TEST_CASE("the 3-D 7-point stencil's variants include coarsening along each dimension") {
  auto lowered = depth1_variants(stencils::find_stencil("j3d7pt").build({16, 16, 16}));
  std::set<std::pair<int64_t, int>> coarsened; // (factor, dimension)
  for (const auto& v : lowered.variants)
    if (v.mapping && v.mapping->kind == rewrite::MappingKind::Coarsened && !v.mapping->interleaved)
      coarsened.insert({v.mapping->factor, v.mapping->dim});
  for (int dim = 0; dim < 3; ++dim)
    for (int factor : {2, 4})
      CHECK(coarsened.count({factor, dim}) == 1);
}

TEST_CASE("stream-nd in 2-D with results along x keeps every boundary and radius") {
  // Radius r stars and boxes (2r+1 windows, four boundaries) on a 12x16 grid, marched in segments
  // of 4 rows with 1 or 2 results along x, run on PoCL.
  auto weighted = user_fun("weighted", [](auto c, auto a, auto b, auto d, auto e, auto f) {
    return c * 0.5 + (a - b) * 0.25 + (d + e) * 0.125 - f * 0.0625;
  });
  for (int r : {1, 2})
    for (Boundary b : {clamp, mirror, wrap, constant(0.5f)}) {
      CAPTURE(r);
      CAPTURE(b.to_string());
      Val x = input("x", array_of(f32(), {12, 16}));
      Fun point([&](Val w) {
        auto at = [&](int y, int xx) { return w.at(y).at(xx); };
        return weighted(at(r, r), at(0, r), at(2 * r, r), at(r, 0), at(r, 2 * r), at(0, 2 * r));
      });
      Expr program = tessera::program({x}, x | pad_nd(2, r, r, b) | slide_nd(2, 2 * r + 1, 1) |
                                               map_nd(2, point));
      CHECK(check_streamed_variants(program, 7) == 2);
    }
}

TEST_CASE("stream-nd in 3-D keeps every boundary and radius: each streaming form matches") {
  // Radius r star stencils on a 16^3 grid (non-square windows of 2r+1, all four boundaries):
  // the streaming forms (whole columns, segments of 4; 1 or 2 results along x) run on PoCL.
  auto weighted = user_fun("weighted", [](auto c, auto a, auto b, auto d, auto e, auto f, auto g) {
    return c * 0.5 + (a - b) * 0.25 + (d + e) * 0.125 - (f + g) * 0.0625;
  });
  for (int r : {1, 2})
    for (Boundary b : {clamp, mirror, wrap, constant(0.5f)}) {
      CAPTURE(r);
      CAPTURE(b.to_string());
      Val x = input("x", array_of(f32(), {16, 16, 16}));
      Fun point([&](Val w) {
        auto at = [&](int z, int y, int xx) { return w.at(z).at(y).at(xx); };
        return weighted(at(r, r, r), at(0, r, r), at(2 * r, r, r), at(r, 0, r), at(r, 2 * r, r),
                        at(r, r, 0), at(r, r, 2 * r));
      });
      Expr program = tessera::program({x}, x | pad_nd(3, r, r, b) | slide_nd(3, 2 * r + 1, 1) |
                                               map_nd(3, point));
      CHECK(check_streamed_variants(program, 5) == 4);
    }
}
