#include "core/NdExpr.h"

#include <utility>

#include "core/Fields.h"

namespace tessera {

Expr map_nest(int dims, Expr f, MapKind kind) {
  for (int i = 0; i < dims; ++i)
    f = make_map(kind, 0, f);
  return f;
}

std::vector<int> sorting_transposes(std::vector<int> labels, const std::vector<int>& rank) {
  std::vector<int> levels;
  for (std::size_t pass = 0; pass < labels.size(); ++pass)
    for (std::size_t k = 0; k + 1 < labels.size(); ++k)
      if (rank[labels[k]] > rank[labels[k + 1]]) {
        std::swap(labels[k], labels[k + 1]);
        levels.push_back(static_cast<int>(k));
      }
  return levels;
}

std::vector<NdStep> windows_nd_plan(int dims) {
  std::vector<NdStep> plan;
  for (int d = 0; d < dims; ++d)
    plan.push_back({NdStep::Window, 2 * d, d});
  // Window levels are the even labels 0, 2, 4.., element levels the odd ones: windows first.
  std::vector<int> labels, rank(2 * dims);
  for (int l = 0; l < 2 * dims; ++l) {
    labels.push_back(l);
    rank[l] = l % 2 == 0 ? l / 2 : dims + l / 2;
  }
  for (int level : sorting_transposes(labels, rank))
    plan.push_back({NdStep::Transpose, level});
  return plan;
}

Expr zip_nd_expr(int dims, const std::vector<Expr>& arrays) {
  Expr zipped = make_call(make_zip(), arrays);
  if (dims <= 1)
    return zipped;
  Expr t = make_param();
  std::vector<Expr> parts;
  for (std::size_t i = 0; i < arrays.size(); ++i)
    parts.push_back(make_call(make_get(static_cast<int>(i)), {t}));
  return make_call(make_map(MapKind::Map, 0, make_lambda({t}, zip_nd_expr(dims - 1, parts))),
                   {zipped});
}

std::optional<std::vector<int64_t>> window_point(const Expr& arg, const Expr& window) {
  std::vector<int64_t> inner_first;
  Expr cur = arg;
  while (cur->kind == NodeKind::Call && cur->children.size() == 2 &&
         cur->callee()->kind == NodeKind::At) {
    auto index = at_fields(*cur->callee()).index.as_constant();
    if (!index)
      return std::nullopt;
    inner_first.push_back(*index);
    cur = cur->children[1];
  }
  if (!cur.same_as(window))
    return std::nullopt;
  return std::vector<int64_t>(inner_first.rbegin(), inner_first.rend());
}

} // namespace tessera
