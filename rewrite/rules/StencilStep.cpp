// Matching the steps of an iterated stencil (StencilStep.h).
#include "rewrite/rules/StencilStep.h"

#include "core/Fields.h"
#include "core/Substitute.h"
#include "rewrite/Normalize.h"
#include "rewrite/Pattern.h"
#include "rewrite/Shapes.h"

namespace tessera::rewrite {

namespace {

// Walks `levels` one-argument calls down from e; null if the chain is shorter.
Expr below(const Expr& e, int levels) {
  Expr cur = e;
  for (int i = 0; i < levels; ++i) {
    if (cur->kind != NodeKind::Call || cur->children.size() != 2)
      return {};
    cur = arg0(cur);
  }
  return cur;
}

// SlideND(n, 1) $ PadND(r, r, b) $ a  ->  n, r, b, a
bool match_neighbourhoods(const Expr& z, int d, StencilStep* s) {
  // SlideND is d Slides plus transposes; PadND is d Pads. Find the Pad chain's base by walking
  // down, then compare with the canonical forms.
  Expr cur = z;
  while (cur->kind == NodeKind::Call && cur->children.size() == 2 &&
         is_layout_only(cur->callee())) {
    Expr inner;
    map_depth(cur->callee(), &inner);
    if (inner->kind == NodeKind::Pad) {
      Expr a = below(cur, d);
      if (!a)
        return false;
      const Node& pad = *inner;
      const MarginFields margins = pad_fields(pad);
      if (!(margins.left == margins.right))
        return false;
      ArithExpr r = margins.left;
      ArithExpr n = 2 * r + 1;
      if (!structurally_equal(slide_nd_expr(d, n, 1, pad_nd_expr(d, r, r, pad.boundary, a)), z))
        return false;
      s->n = n;
      s->r = r;
      s->boundary = pad.boundary;
      s->input = a;
      return true;
    }
    cur = arg0(cur);
  }
  return false;
}

} // namespace

std::optional<StencilStep> match_step(const Expr& e) {
  if (!is_computing_map_call(e))
    return std::nullopt;
  StencilStep s;
  s.d = map_depth(e->callee(), &s.f);
  if (s.d < 1 || s.d > 3)
    return std::nullopt;
  // Compositions written with the front end's `>>` are lambdas applied to the grid.
  s.windows = beta_normalize(arg0(e));
  // ZipND(neighbourhoods, consts..) is Zip (then, for d > 1, a Map of Zips of the components).
  Expr zip = s.d == 1 ? s.windows : below(s.windows, 1);
  if (zip && zip->kind == NodeKind::Call && zip->callee()->kind == NodeKind::Zip) {
    auto parts = zip->call_args();
    if (parts.size() < 2 || !structurally_equal(zip_nd_expr(s.d, parts), s.windows) ||
        !match_neighbourhoods(parts[0], s.d, &s))
      return std::nullopt;
    s.consts.assign(parts.begin() + 1, parts.end());
    return s;
  }
  if (!match_neighbourhoods(s.windows, s.d, &s))
    return std::nullopt;
  return s;
}

bool steps_alike(const StencilStep& a, const StencilStep& b, StepsAlike alike) {
  const bool shape = alike == StepsAlike::SameShape;
  if (a.d != b.d || !(a.r == b.r) || a.consts.size() != b.consts.size())
    return false;
  if (shape ? a.boundary.kind != b.boundary.kind
            : !(a.boundary == b.boundary) || !structurally_equal(a.f, b.f))
    return false;
  for (std::size_t i = 0; alike != StepsAlike::EqualButConsts && i < a.consts.size(); ++i)
    if (!structurally_equal(a.consts[i], b.consts[i]))
      return false;
  return true;
}

std::vector<ArithExpr> extents_of(const Type& t, int d) {
  std::vector<ArithExpr> ext;
  const Type* cur = &t;
  for (int i = 0; i < d; ++i, cur = &cur->element())
    ext.push_back(cur->length());
  return ext;
}

std::vector<StencilStep> match_steps(const Expr& e, std::size_t most, StepsAlike alike) {
  std::vector<StencilStep> chain;
  auto top = match_step(e);
  if (!top)
    return chain;
  chain.push_back(*top);
  while (chain.size() < most) {
    auto next = match_step(chain.back().input);
    if (!next || !steps_alike(*next, *top, alike))
      break;
    chain.push_back(*next);
  }
  return chain;
}

} // namespace tessera::rewrite
