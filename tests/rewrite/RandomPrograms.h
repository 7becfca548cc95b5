// Random well-typed stencil programs for property tests of the rewrite rules: random
// dimensions (1-3), sizes, radii, boundary kinds, one or two zipped inputs, a pointwise map
// after the stencil, and redundant layout pairs (Split/Join, Transpose/Transpose).
#pragma once

#include <random>

#include "dsl/Dsl.h"
#include "rewrite/Normalize.h"

namespace tessera::testing {

struct RandomProgram {
  Expr program;
  std::string family;
};

inline RandomProgram random_program(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int dims = pick(1, 10) <= 5 ? 1 : pick(1, 10) <= 7 ? 2 : 3;
  int radius = dims == 3 ? 1 : pick(1, 2);
  const std::vector<Boundary> boundaries = {clamp, mirror, wrap, constant(0.25f), antisymmetric};
  Boundary b = boundaries[pick(0, 4)];
  std::vector<int> choices = dims == 1   ? std::vector<int>{8, 12, 16, 24, 32}
                             : dims == 2 ? std::vector<int>{4, 6, 8, 12}
                                         : std::vector<int>{4, 6};
  std::vector<ArithExpr> shape;
  for (int d = 0; d < dims; ++d)
    shape.push_back(choices[pick(0, static_cast<int>(choices.size()) - 1)]);
  bool two_inputs = pick(0, 3) == 0;
  bool pointwise_after = pick(0, 2) == 0;
  bool layout_noise = pick(0, 3) == 0;
  int window = 2 * radius + 1;

  Val x = input("x", array_of(f32(), shape));
  Val y = input("y", array_of(f32(), shape));
  auto square = user_fun("square", [](auto a) { return a * a; });
  int noise_kind = pick(0, 2);
  auto neighbourhoods = [&](Val v) {
    // Redundant rearrangements and pointwise maps around them (Split/Join/Map patterns).
    if (layout_noise && dims == 1 && noise_kind == 0)
      v = v | split(2) | join();
    if (layout_noise && dims == 1 && noise_kind == 1)
      v = v | split(2) | join() | map(square);
    if (layout_noise && dims == 1 && noise_kind == 2)
      v = v | map(square) | split(2) | join();
    if (layout_noise && dims == 2)
      v = v | transpose() | transpose();
    return v | pad_nd(dims, radius, radius, b) | slide_nd(dims, window, 1);
  };
  auto scale = user_fun("scale", [](auto a) { return a * 0.5; });
  auto add = add_fun();
  auto mul_add = user_fun("mul_add", [](auto a, auto w, auto c) { return a * w + c; });
  Fun sum_window = join_nd(dims) >> reduce(add, 0.0f) >> map(scale);

  Val out = [&] {
    if (!two_inputs)
      return neighbourhoods(x) | map_nd(dims, sum_window);
    Val z = zip_nd(dims, {neighbourhoods(x), neighbourhoods(y)});
    return z | map_nd(dims, Fun([&](Val t) {
                        Val s = t.get(0) | sum_window;
                        Val c = t.get(1) | join_nd(dims) | at(0);
                        return s | map(Fun([&](Val v) { return mul_add(v, c, 1.0f); }));
                      }));
  }();
  if (pointwise_after)
    out = out | map_nd(dims, map(square));
  std::vector<Val> inputs{x};
  if (two_inputs)
    inputs.push_back(y);
  return {rewrite::beta_normalize(program(inputs, out)),
          cat(dims, "-D r", radius, " ", b.to_string(), two_inputs ? " zip" : "",
              pointwise_after ? " +map" : "", layout_noise ? " +layout" : "")};
}

// k time steps (2-4) of one random stencil: each step averages the (2r+1)^d neighbourhood of
// the previous step's grid (padded with a random boundary), optionally adding a zipped
// right-hand side y. These are the programs temporal tiling fuses.
inline RandomProgram random_multistep_program(std::mt19937& rng) {
  auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  int dims = pick(1, 10) <= 4 ? 1 : pick(1, 10) <= 7 ? 2 : 3;
  int radius = dims == 3 ? 1 : pick(1, 2);
  int steps = dims == 3 ? pick(2, 3) : pick(2, 4);
  const std::vector<Boundary> boundaries = {clamp, mirror, wrap, constant(0.25f), antisymmetric};
  Boundary b = boundaries[pick(0, 4)];
  std::vector<int> choices = dims == 1   ? std::vector<int>{8, 12, 16, 24}
                             : dims == 2 ? std::vector<int>{6, 8, 12}
                                         : std::vector<int>{4, 6};
  std::vector<ArithExpr> shape;
  for (int d = 0; d < dims; ++d)
    shape.push_back(choices[pick(0, static_cast<int>(choices.size()) - 1)]);
  bool rhs = pick(0, 2) == 0;
  int window = 2 * radius + 1;
  double points = 1;
  for (int d = 0; d < dims; ++d)
    points *= window;
  Val x = input("x", array_of(f32(), shape));
  Val y = input("y", array_of(f32(), shape));
  auto average = user_fun("average", [points](auto a) { return a * (1.0 / points); });
  auto mul_add = user_fun("mul_add", [](auto a, auto w, auto c) { return a * w + c; });
  Fun mean = Fun([dims, average](Val w) {
    return (w | join_nd(dims) | reduce(add_fun(), 0.0f) | map(average)).at(0);
  });
  auto step = [&](Val v) {
    Val windows = v | pad_nd(dims, radius, radius, b) | slide_nd(dims, window, 1);
    if (!rhs)
      return windows | map_nd(dims, mean);
    return zip_nd(dims, {windows, y}) |
           map_nd(dims, Fun([&](Val t) { return mul_add(mean(t.get(0)), 0.5f, t.get(1)); }));
  };
  Val out = x;
  for (int s = 0; s < steps; ++s)
    out = step(out);
  std::vector<Val> inputs{x};
  if (rhs)
    inputs.push_back(y);
  return {rewrite::beta_normalize(program(inputs, out)),
          cat(dims, "-D r", radius, " ", b.to_string(), " x", steps, rhs ? " rhs" : "")};
}

} // namespace tessera::testing
