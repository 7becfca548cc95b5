#include "core/WorkItemMemory.h"

#include <optional>

#include "core/Error.h"
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

bool fits_one_work_item(const Expr& argument,
                        const std::function<const Type&(const Expr&)>& type_of,
                        int64_t max_elements) {
  if (argument->kind != NodeKind::Call)
    return true;
  if (!rearranges_only(argument->callee())) {
    std::optional<int64_t> count;
    try {
      count = type_of(argument).scalar_count().as_constant();
    } catch (const Error&) { // a value without a type: not known to fit
    }
    if (!count || *count > max_elements)
      return false;
  }
  for (const auto& a : argument->call_args())
    if (!fits_one_work_item(a, type_of, max_elements))
      return false;
  return true;
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
