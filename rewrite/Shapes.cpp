#include "rewrite/Shapes.h"

#include <vector>

#include "rewrite/Pattern.h"

namespace tessera::rewrite {

namespace {

// Applies `f` at nesting level `level` of x: Map^level(f) $ x.
Expr at_level(int level, const Expr& f, const Expr& x) {
  return call1(map_nest(level, f), x);
}

// Sorts the level labels into `target` order with adjacent swaps, applying a Transpose at the
// level of each swap (Map^k(Transpose) swaps levels k and k+1).
Expr reorder(std::vector<int> labels, const std::vector<int>& rank, Expr x) {
  for (std::size_t pass = 0; pass < labels.size(); ++pass)
    for (std::size_t k = 0; k + 1 < labels.size(); ++k)
      if (rank[labels[k]] > rank[labels[k + 1]]) {
        std::swap(labels[k], labels[k + 1]);
        x = at_level(static_cast<int>(k), make_transpose(), x);
      }
  return x;
}

// Windows at every level (outer first), then window levels first: [w0][w1]..[s0][s1]..
Expr windows(int dims, const std::function<Expr(int)>& level_fn, Expr x) {
  for (int d = 0; d < dims; ++d)
    x = at_level(2 * d, level_fn(d), x);
  std::vector<int> labels, rank(2 * dims);
  for (int l = 0; l < 2 * dims; ++l) {
    labels.push_back(l);
    rank[l] = l % 2 == 0 ? l / 2 : dims + l / 2;
  }
  return reorder(labels, rank, x);
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
