#include "core/WorkItemMemory.h"

#include <functional>
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
// A generated array whose generator computes no array (the fixed boundary's interior grid, a
// grid of coordinates): the code generator evaluates its elements where they are read (a view,
// codegen/View.h), so a work-item stores none of it.
bool generated_view(const Expr& e) {
  if (e->kind != NodeKind::Call || e->callee()->kind != NodeKind::Generate)
    return false;
  std::function<bool(const Expr&)> arrays_free = [&](const Expr& x) {
    if (generated_view(x))
      return true;
    const bool array_work = x->kind == NodeKind::Map || x->kind == NodeKind::Reduce ||
                            x->kind == NodeKind::Scan || x->kind == NodeKind::Iterate ||
                            x->kind == NodeKind::TimeTile || x->kind == NodeKind::StreamSteps;
    if (array_work)
      return false;
    for (const auto& c : x->children)
      if (!arrays_free(c))
        return false;
    return true;
  };
  return arrays_free(e->callee()->children[0]);
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
  if (argument->kind != NodeKind::Call || generated_view(argument))
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
