#include "rewrite/rules/Windows.h"

#include "core/Fields.h"
#include "core/Substitute.h"
#include "rewrite/Pattern.h"
#include "rewrite/Shapes.h"

namespace tessera::rewrite {

// Finds x and n such that `a` is SlideND(n, 1) $ x over d levels: walks down the chain of
// layout calls and tries each value below a Slide as the base.
bool match_slide_nd(const Expr& a, int d, Expr* x, ArithExpr* n) {
  std::optional<ArithExpr> size;
  Expr cur = a;
  while (cur->kind == NodeKind::Call && cur->children.size() == 2 &&
         is_layout_only(cur->callee())) {
    Expr inner;
    map_depth(cur->callee(), &inner);
    if (inner->kind == NodeKind::Slide)
      size = slide_fields(*inner).size;
    cur = arg0(cur);
    if (size && structurally_equal(slide_nd_expr(d, *size, 1, cur), a)) {
      *x = cur;
      *n = *size;
      return true;
    }
  }
  return false;
}

// The components of ZipND(parts..) over d levels, or nothing.
std::optional<std::vector<Expr>> match_zip_nd(const Expr& a, int d) {
  Expr zip = a;
  if (d > 1) {
    if (zip->kind != NodeKind::Call || zip->children.size() != 2)
      return std::nullopt;
    zip = arg0(zip);
  }
  if (zip->kind != NodeKind::Call || zip->callee()->kind != NodeKind::Zip)
    return std::nullopt;
  auto parts = zip->call_args();
  if (parts.size() < 2 || !structurally_equal(zip_nd_expr(d, parts), a))
    return std::nullopt;
  return parts;
}

std::optional<std::vector<StencilInput>> match_stencil_inputs(const Expr& a, int d, bool* zipped) {
  Expr base;
  ArithExpr size;
  if (match_slide_nd(a, d, &base, &size)) {
    *zipped = false;
    return std::vector<StencilInput>{{base, size}};
  }
  auto parts = match_zip_nd(a, d);
  if (!parts)
    return std::nullopt;
  std::vector<StencilInput> inputs;
  bool any_window = false;
  for (const auto& part : *parts) {
    if (match_slide_nd(part, d, &base, &size)) {
      inputs.push_back({base, size});
      any_window = true;
    } else {
      inputs.push_back({part, std::nullopt});
    }
  }
  if (!any_window)
    return std::nullopt;
  *zipped = true;
  return inputs;
}

} // namespace tessera::rewrite
