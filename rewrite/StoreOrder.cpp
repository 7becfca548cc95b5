#include "rewrite/StoreOrder.h"

#include <algorithm>

#include "core/Substitute.h"

namespace tessera::rewrite {

namespace {

// The dimensions of a value, outermost first; each lists the nest levels it holds in row-major
// order (a joined dimension holds several, an inner element dimension none).
using Dims = std::vector<std::vector<int>>;

// The one-argument layout functions a lambda applies to its parameter, innermost first.
bool chain_of(const Expr& lambda, std::vector<Expr>& functions) {
  if (lambda->params().size() != 1)
    return false;
  std::vector<Expr> outer_first;
  Expr cur = lambda->body();
  while (!cur.same_as(lambda->params()[0])) {
    if (cur->kind != NodeKind::Call || cur->children.size() != 2)
      return false;
    outer_first.push_back(cur->callee());
    cur = cur->children[1];
  }
  functions.assign(outer_first.rbegin(), outer_first.rend());
  return true;
}

// Applies the layout function f at `depth` of `dims`; false when it is not understood.
bool apply(const Expr& f, std::size_t depth, Dims& dims) {
  // Levels deeper than the ones listed are element dimensions without nest levels.
  auto ensure = [&](std::size_t n) {
    while (dims.size() < n)
      dims.emplace_back();
  };
  switch (f->kind) {
  case NodeKind::Map:
    return f->map_kind == MapKind::Map && apply(f->children[0], depth + 1, dims);
  case NodeKind::Transpose:
    ensure(depth + 2);
    std::swap(dims[depth], dims[depth + 1]);
    return true;
  case NodeKind::Join: {
    ensure(depth + 2);
    auto& outer = dims[depth];
    outer.insert(outer.end(), dims[depth + 1].begin(), dims[depth + 1].end());
    dims.erase(dims.begin() + static_cast<std::ptrdiff_t>(depth) + 1);
    return true;
  }
  case NodeKind::Split: // [n] -> [n/m][m]: the levels keep their order (in the outer part)
    ensure(depth + 1);
    dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(depth) + 1, std::vector<int>{});
    return true;
  case NodeKind::Lambda: {
    std::vector<Expr> functions;
    if (!chain_of(f, functions))
      return false;
    for (const auto& g : functions)
      if (!apply(g, depth, dims))
        return false;
    return true;
  }
  default:
    return false;
  }
}

} // namespace

std::optional<std::vector<int>> store_order(const Expr& root, const Expr& compute, int k) {
  // The layout calls from the root down to the computing call.
  std::vector<Expr> outer_first;
  for (Expr cur = root; !cur.same_as(compute); cur = cur->children[1]) {
    if (cur->kind != NodeKind::Call || cur->children.size() != 2 || !is_layout_only(cur->callee()))
      return std::nullopt;
    outer_first.push_back(cur->callee());
  }
  Dims dims;
  for (int l = 0; l < k; ++l)
    dims.push_back({l});
  for (auto it = outer_first.rbegin(); it != outer_first.rend(); ++it)
    if (!apply(*it, 0, dims))
      return std::nullopt;
  std::vector<int> order;
  for (const auto& d : dims)
    order.insert(order.end(), d.begin(), d.end());
  return order;
}

} // namespace tessera::rewrite
