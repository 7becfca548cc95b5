// The fixed halo (dsl/FixedHalo.h): cells within the radius of the edge keep their initial
// value over many steps. Checked against a plain C++ loop, and every executable variant of the
// iterated program (one launch per step, overlapped temporal tiles, 2.5-D streaming of fused
// steps) against the interpreter on PoCL.
#include <doctest/doctest.h>

#include <set>

#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "explore/Variants.h"
#include "rewrite/Lower.h"
#include "rewrite/Mapping.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

namespace {

// The star of radius r in d dimensions: (sum of the 2dr arms + 2 * centre) / (2dr + 2).
Fun star(int dims, int radius) {
  return Fun([dims, radius](Val w) {
    auto point = [&](const std::vector<int>& offset) {
      Val v = w;
      for (int o : offset)
        v = v.at(radius + o);
      return v;
    };
    std::vector<int> centre(dims, 0);
    Val sum = 2 * point(centre);
    for (int d = 0; d < dims; ++d)
      for (int o = -radius; o <= radius; ++o)
        if (o != 0) {
          std::vector<int> offset = centre;
          offset[d] = o;
          sum = sum + point(offset);
        }
    return (sum / (2 * dims * radius + 2)).named("star");
  });
}

// `steps` steps as Iterate, or (`chained`) as nested calls, the form the temporal rules fuse
// (stencils::iterate_program builds it).
Expr fixed_star(const std::vector<int64_t>& shape, int radius, int steps, bool chained = false) {
  const int dims = static_cast<int>(shape.size());
  std::vector<ArithExpr> extents(shape.begin(), shape.end());
  Val x = input("x", array_of(f32(), extents));
  Fun step = fixed_halo(dims, radius, star(dims, radius));
  if (!chained)
    return program({x}, x | iterate(steps, step));
  Val y = x;
  for (int s = 0; s < steps; ++s)
    y = y | step;
  return program({x}, y);
}

// The benchmarks' loop: copy the grid, update the interior from the previous step.
std::vector<float> reference_steps(std::vector<float> grid, const std::vector<int64_t>& shape,
                                   int radius, int steps) {
  const int dims = static_cast<int>(shape.size());
  std::vector<int64_t> stride(dims, 1);
  for (int d = dims - 2; d >= 0; --d)
    stride[d] = stride[d + 1] * shape[d + 1];
  for (int s = 0; s < steps; ++s) {
    std::vector<float> next = grid;
    for (int64_t flat = 0; flat < static_cast<int64_t>(grid.size()); ++flat) {
      bool interior = true;
      for (int d = 0; d < dims; ++d) {
        int64_t p = flat / stride[d] % shape[d];
        interior &= p >= radius && p < shape[d] - radius;
      }
      if (!interior)
        continue;
      float sum = 2 * grid[flat];
      for (int d = 0; d < dims; ++d)
        for (int o = -radius; o <= radius; ++o)
          if (o != 0)
            sum = sum + grid[flat + o * stride[d]];
      next[flat] = sum / static_cast<float>(2 * dims * radius + 2);
    }
    grid = next;
  }
  return grid;
}

void check_against_loop(const std::vector<int64_t>& shape, int radius, int steps) {
  CAPTURE(shape.size());
  CAPTURE(radius);
  Expr p = fixed_star(shape, radius, steps);
  auto inputs = random_inputs(p, 21);
  std::vector<float> initial;
  for (double v : inputs[0].flatten())
    initial.push_back(static_cast<float>(v));
  std::vector<float> expected = reference_steps(initial, shape, radius, steps);
  std::vector<double> got = evaluate(p, inputs).flatten();
  REQUIRE(got.size() == expected.size());
  int64_t kept = 0, interior = 1;
  for (std::size_t i = 0; i < got.size(); ++i) {
    CHECK(got[i] == doctest::Approx(expected[i]).epsilon(1e-6));
    kept += got[i] == initial[i];
  }
  for (int64_t n : shape)
    interior *= n - 2 * radius;
  // The halo stayed, every interior cell moved.
  CHECK(kept == static_cast<int64_t>(got.size()) - interior);
}

} // namespace

TEST_CASE("a fixed halo keeps the cells near the edge over several steps, as a plain loop") {
  check_against_loop({24}, 2, 5);
  check_against_loop({9, 11}, 1, 4);
  check_against_loop({10, 12}, 2, 3);
  check_against_loop({6, 7, 8}, 1, 3);
  Expr p = fixed_star({9, 11}, 1, 4, true);
  auto inputs = random_inputs(p, 23);
  CHECK(evaluate(p, inputs).flatten() == evaluate(fixed_star({9, 11}, 1, 4), inputs).flatten());
}

TEST_CASE("every variant of an iterated fixed-halo stencil matches stepping one at a time" *
          doctest::test_suite("extended")) {
  for (auto [shape, radius] :
       {std::pair<std::vector<int64_t>, int>{{32}, 1}, {{16, 16}, 1}, {{8, 8, 8}, 1}}) {
    for (bool chained : {false, true}) {
      Expr p = fixed_star(shape, radius, 3, chained);
      CAPTURE(print(p));
      rewrite::EnumerateOptions options;
      options.depth = 1;
      options.tile_sizes = {4, 8};
      auto variants = explore::executable_variants(p, options);
      MESSAGE(variants.summary());
      REQUIRE(variants.variants.size() > 1);
      auto inputs = random_inputs(p, 22);
      std::set<std::string> mappings;
      for (const auto& v : variants.variants) {
        CAPTURE(print(v.program));
        testing::check_program(v.program, inputs, {}, 1e-5);
        if (v.mapping)
          mappings.insert(rewrite::describe(*v.mapping));
        for (const auto& h : v.history)
          mappings.insert("rule " + h.rule);
      }
      for (const auto& m : mappings)
        MESSAGE(m);
      // The chained steps are fused: overlapped temporal tiles (and 2.5-D streaming in 2-D/3-D)
      // recompute the kept cells exactly.
      if (chained)
        CHECK(mappings.count("rule temporal-tiling") == 1);
      if (chained && shape.size() > 1)
        CHECK(mappings.count("rule stream-temporal") == 1);
    }
  }
}

TEST_CASE("fixed_halo refuses a grid without interior and bad radii, saying why") {
  Val x = input("x", array_of(f32(), {2, 8}));
  CHECK_THROWS_WITH_AS(x | fixed_halo(2, 1, star(2, 1)),
                       doctest::Contains("a halo of 1 leaves no interior in an extent of 2"),
                       Error);
  CHECK_THROWS_WITH_AS(fixed_halo(2, 0, star(2, 1)),
                       doctest::Contains("expected 1 to 3 dimensions and a radius >= 1"), Error);
  Val sym = input("y", array_of(f32(), {size("N"), size("M")}));
  CHECK_THROWS_WITH_AS(sym | fixed_halo(2, 1, star(2, 1)),
                       doctest::Contains("needs a grid of constant extents"), Error);
}
