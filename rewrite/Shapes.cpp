#include "rewrite/Shapes.h"

#include <vector>

#include "rewrite/Pattern.h"

namespace tessera::rewrite {

namespace {

// Sorts the level labels into rank order, a Transpose at the level of each adjacent swap.
Expr reorder(const std::vector<int>& labels, const std::vector<int>& rank, Expr x) {
  for (int level : sorting_transposes(labels, rank))
    x = at_level(level, make_transpose(), x);
  return x;
}

// The plan the DSL's slide_nd and split_nd follow too (core/NdExpr.h).
Expr windows(int dims, const std::function<Expr(int)>& level_fn, Expr x) {
  for (const NdStep& step : windows_nd_plan(dims))
    x = at_level(step.level, step.kind == NdStep::Window ? level_fn(step.dim) : make_transpose(),
                 x);
  return x;
}

} // namespace

Expr slide_nd_expr(int dims, ArithExpr size, ArithExpr step, const Expr& x) {
  Expr slide = make_slide(size, step);
  return windows(
      dims, [&](int) { return slide; }, x);
}

Expr tile_expr(int dims, ArithExpr k, const Expr& x) {
  Expr split = make_split(k);
  return windows(
      dims, [&](int) { return split; }, x);
}

Expr windows_nd_expr(int dims, const std::function<Expr(int)>& level_fn, const Expr& x) {
  return windows(dims, level_fn, x);
}

Expr pad_nd_expr(int dims, ArithExpr left, ArithExpr right, Boundary boundary, const Expr& x) {
  Expr pad = make_pad(left, right, boundary);
  Expr y = x;
  for (int d = 0; d < dims; ++d)
    y = at_level(d, pad, y);
  return y;
}

Expr pad_end_expr(const std::vector<int64_t>& padding, const Expr& x) {
  Expr y = x;
  for (std::size_t d = 0; d < padding.size(); ++d)
    if (padding[d] > 0)
      y = at_level(static_cast<int>(d), make_pad(0, padding[d], Boundary::clamp()), y);
  return y;
}

Expr drop_end_expr(const std::vector<int64_t>& padding, const Expr& x) {
  Expr y = x;
  for (std::size_t d = 0; d < padding.size(); ++d)
    if (padding[d] > 0)
      y = at_level(static_cast<int>(d), make_drop(0, padding[d]), y);
  return y;
}

Expr untile_expr(int dims, const Expr& x) {
  // [t0]..[t_{d-1}][e0]..[e_{d-1}] -> [t0][e0][t1][e1].. , then join the pairs innermost first.
  std::vector<int> labels, rank(2 * dims);
  for (int i = 0; i < dims; ++i)
    labels.push_back(2 * i); // tile levels
  for (int i = 0; i < dims; ++i)
    labels.push_back(2 * i + 1); // element levels
  for (int l = 0; l < 2 * dims; ++l)
    rank[l] = l;
  Expr y = reorder(labels, rank, x);
  for (int i = dims - 1; i >= 0; --i)
    y = at_level(2 * i, make_join(), y);
  return y;
}

} // namespace tessera::rewrite
