// Iterate(k, f) : [T]_n -> [T]_{g^k(n)}   f applied k times; f may change the length (g) but
// not the element type or nesting depth, so that its output is again a valid input.
#include "core/Error.h"
#include "core/Fields.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

namespace {
// Same nesting and element types, lengths ignored.
bool same_skeleton(const Type& a, const Type& b) {
  if (a.kind() != b.kind())
    return false;
  switch (a.kind()) {
  case TypeKind::Scalar:
    return a.scalar_kind() == b.scalar_kind();
  case TypeKind::Array:
    return same_skeleton(a.element(), b.element());
  case TypeKind::Tuple:
    if (a.elements().size() != b.elements().size())
      return false;
    for (std::size_t i = 0; i < a.elements().size(); ++i)
      if (!same_skeleton(a.elements()[i], b.elements()[i]))
        return false;
    return true;
  }
  return false;
}
} // namespace

Type iterate_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  require_array(name.c_str(), args[0]);
  int64_t k = *iterate_fields(f).times.as_constant();
  Type t = args[0];
  for (int64_t step = 0; step < k; ++step) {
    Type next = checker.apply(f.children[0], {t});
    if (!same_skeleton(t, next))
      user_error(cat(name, ": the function does not compose with itself: it maps ", t, " to ", next,
                     ", which it cannot take as input again"));
    t = next;
  }
  return t;
}

Data iterate_eval(Interpreter& interp, const Node& f, const Values& args) {
  Data x = args.at(0);
  int64_t k = *iterate_fields(f).times.as_constant();
  for (int64_t step = 0; step < k; ++step)
    x = interp.apply(f.children[0], {x});
  return x;
}

} // namespace tessera::primitives
