// What one work-item can compute whole, shared by the code generator (which refuses more) and the
// mapping stage (which does not offer a lowering that would need more): a rule that lowers the
// earlier steps of a program sequentially inside each work-item of the last step (the mappings of
// rewrite/MapLevels.h, coarsen-nd, vectorize-4) keeps every one of their intermediates in that
// work-item's private memory.
#pragma once

#include <cstdint>
#include <functional>

#include "core/Expr.h"

namespace tessera {

// True when `e` computes something: a Map whose function is not layout-only, a Reduce, a Scan,
// a TimeTile or an Iterate anywhere in it.
bool computes(const Expr& e);

// True when each work-item may compute `argument` whole and keep what it computes in private
// memory: every computed array along it (the result of each computing call, not the views of
// it, such as its windows) has at most `max_elements` values (the target's
// max_private_elements, core/Target.h). A Generate whose generator computes no array is a view
// (its elements are evaluated where read): it stores nothing. `type_of` gives the types of the
// program's value expressions (TypeChecker::type_of).
bool fits_one_work_item(const Expr& argument,
                        const std::function<const Type&(const Expr&)>& type_of,
                        int64_t max_elements);

// The first computing Map or Reduce that no lowering chose a mapping for, or null.
Expr unlowered_computation(const Expr& e);

} // namespace tessera
