// Iterated stencils for the stream-temporal tests (and their Oclgrind run): k steps of a
// d-dimensional stencil of radius r with a boundary, optionally with a right-hand side zipped
// to the neighbourhoods, and the rule's fused forms of them.
#pragma once

#include "dsl/Dsl.h"
#include "rewrite/rules/StencilStep.h"

namespace tessera::testing {

// A step whose f is neither symmetric nor odd (distinct weights per offset, plus a constant
// and the right-hand side): a wrong orientation, offset or boundary changes the results.
inline Expr iterated_test_stencil(int d, int r, Boundary b, int k,
                                  const std::vector<ArithExpr>& extents, bool rhs) {
  Val x = input("x", array_of(f32(), extents));
  Val c = input("rhs", array_of(f32(), extents));
  auto axpy = user_fun("axpy", [](auto acc, auto w, auto v) { return acc + w * v; });
  auto f = Fun([=](Val t) {
    Val w = rhs ? t.get(0) : t;
    Val acc = Val(rhs ? t.get(1) : Val(0.125f));
    // Centre and the 2d neighbours at distance 1..r along each axis: a star.
    for (int axis = 0; axis < d; ++axis)
      for (int o = -r; o <= r; ++o) {
        if (o == 0 && axis > 0)
          continue;
        Val v = w;
        for (int a = 0; a < d; ++a)
          v = v.at(a == axis ? r + o : r);
        float weight = 0.05f + 0.02f * static_cast<float>(axis * (2 * r + 1) + o + r);
        acc = axpy(acc, Val(weight), v);
      }
    return acc;
  });
  auto step = [&](Val v) {
    Val windows = v | pad_nd(d, r, r, b) | slide_nd(d, 2 * r + 1, 1);
    return (rhs ? zip_nd(d, {windows, c}) : windows) | map_nd(d, f);
  };
  Val y = x;
  for (int i = 0; i < k; ++i)
    y = step(y);
  return rhs ? program({x, c}, y) : program({x}, y);
}

// The stream-temporal rule's alternatives at the program's body.
inline std::vector<rewrite::Alternative> stream_temporal_forms(const Expr& program, int64_t k,
                                                               std::vector<int64_t> tiles) {
  TypeChecker types;
  types.apply(program, input_types(program));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = std::move(tiles);
  ctx.temporal_steps = {k};
  return rewrite::stream_temporal_rule().apply(program->body(), ctx).alternatives;
}

} // namespace tessera::testing
