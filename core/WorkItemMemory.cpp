#include "core/WorkItemMemory.h"

#include "core/Substitute.h"

namespace tessera {

namespace {
// A function that only rearranges data, mapped in any way (MapSeq of a Transpose computes
// nothing either).
bool rearranges_only(const Expr& f) {
  if (f->kind == NodeKind::Map)
    return rearranges_only(f->children[0]);
  return is_layout_only(f);
}
} // namespace

bool computes(const Expr& e) {
  if (e->kind == NodeKind::Call && !rearranges_only(e->callee()))
    return true;
  for (const auto& c : e->children)
    if (computes(c))
      return true;
  return false;
}

bool fits_one_work_item(const Expr& argument, const Type& type) {
  if (!computes(argument))
    return true;
  auto count = type.scalar_count().as_constant();
  return count && *count <= kMaxPrivateElements;
}

Expr unlowered_computation(const Expr& e) {
  bool is_high_map =
      e->kind == NodeKind::Map && e->map_kind == MapKind::Map && !is_layout_only(e->children[0]);
  bool is_high_reduce = e->kind == NodeKind::Reduce && e->reduce_kind == ReduceKind::Reduce;
  if (is_high_map || is_high_reduce)
    return e;
  for (const auto& c : e->children)
    if (Expr found = unlowered_computation(c))
      return found;
  return {};
}

} // namespace tessera
