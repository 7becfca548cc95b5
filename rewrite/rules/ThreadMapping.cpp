// Thread mapping: which global dimension each level of a MapGlb nest takes.
//
//   glb-order  MapGlb(d_0)(... MapGlb(d_1)(... MapGlb(d_{k-1})(f))) ->
//              MapGlb(d_p(0))(... MapGlb(d_p(1))(... MapGlb(d_p(k-1))(f)))
//              for every other permutation p of the nest's k >= 2 dimensions
//
// The levels are the MapGlbs directly nested in one another, or through a one-parameter lambda
// that applies the next level (p => MapGlb(..)(g) $ a(p)), as the lowering builds them. The
// values do not change (a MapGlb computes the same as Map in every dimension); what changes is
// which level neighbouring work-items (dimension 0) walk, and with it the stride of their loads
// and stores: a nest written with MapGlb(0) outermost (the thesis's prolongation) stores n^2
// apart in 3-D, the order with the innermost level on dimension 0 stores contiguously.
// Parameters: level<l> = the dimension of level l (outermost level 0).
#include <algorithm>

#include "core/Error.h"
#include "rewrite/Pattern.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

bool is_glb(const Expr& f) {
  return f->kind == NodeKind::Map && f->map_kind == MapKind::Glb;
}

// The MapGlb of the next level inside `level`, or null.
Expr next_level(const Expr& level) {
  const Expr& g = level->children[0];
  if (is_glb(g))
    return g;
  if (g->kind == NodeKind::Lambda && g->params().size() == 1 && g->body()->kind == NodeKind::Call &&
      g->body()->children.size() == 2 && is_glb(g->body()->callee()))
    return g->body()->callee();
  return {};
}

// The nest's levels from the outside in.
std::vector<Expr> glb_levels(const Expr& outer) {
  std::vector<Expr> levels;
  for (Expr cur = outer; cur; cur = next_level(cur))
    levels.push_back(cur);
  return levels;
}

// The nest from `level` on with the dimensions dims[l..].
Expr with_dims(const Expr& level, const std::vector<int>& dims, std::size_t l) {
  Expr inner = next_level(level);
  Expr body = level->children[0];
  if (inner) {
    Expr renumbered = with_dims(inner, dims, l + 1);
    if (is_glb(body)) {
      body = renumbered;
    } else {
      Expr call = with_children(body->body(), {renumbered, body->body()->children[1]});
      body = make_lambda(body->params(), call);
    }
  }
  return make_map(MapKind::Glb, dims[l], body);
}

RuleResult glb_order(const Expr& f, const RuleContext&) {
  if (!is_glb(f))
    return RuleResult::none("");
  std::vector<Expr> levels = glb_levels(f);
  if (levels.size() < 2)
    return RuleResult::none("a single MapGlb level: there is no order to choose");
  std::vector<int> current;
  for (const auto& l : levels)
    current.push_back(l->dim);
  std::vector<int> dims = current;
  std::sort(dims.begin(), dims.end());
  if (std::adjacent_find(dims.begin(), dims.end()) != dims.end())
    return RuleResult::none("the nest uses a dimension twice");
  RuleResult r;
  do {
    if (dims == current)
      continue;
    Params params;
    for (std::size_t l = 0; l < dims.size(); ++l)
      params[cat("level", l)] = dims[l];
    r.alternatives.push_back({with_dims(f, dims, 0), params});
  } while (std::next_permutation(dims.begin(), dims.end()));
  return r;
}

} // namespace

std::vector<Rule> thread_mapping_rules() {
  // It matches the outermost MapGlb of a nest (is_glb).
  return {
      at_kinds({"glb-order",
                "MapGlb(d0)(..MapGlb(d1)(..MapGlb(d2)(f))) -> the same nest with the dimensions "
                "permuted: which level neighbouring work-items (dimension 0) walk",
                glb_order,
                {},
                {{.name = "level0", .values = {0, 1, 2}},
                 {.name = "level1", .values = {0, 1, 2}},
                 {.name = "level2", .values = {0, 1, 2}, .optional = true}},
                false},
               {NodeKind::Map})};
}

} // namespace tessera::rewrite
