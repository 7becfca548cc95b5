// At(i)  : [T]_n -> T            the element i (0 <= i < n)
// Get(i) : {T0, ..., Tk} -> Ti   the tuple component i
#include "core/Error.h"
#include "core/Fields.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type at_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  const ArithExpr& i = at_fields(f).index;
  // Written only when needed: a large stencil types thousands of At calls, nearly all proved.
  auto why = [&] {
    return cat(name, ": index ", i.to_string(), " is out of range for ", in,
               " (valid indices are 0 to ", (in.length() - 1).to_string(), ")");
  };
  switch (prove_lt(i, in.length())) {
  case Truth::No:
    user_error(why());
  case Truth::Unknown:
    checker.assume(lt(i, in.length()) - 1, why());
    break;
  case Truth::Yes:
    break;
  }
  return in.element();
}

Data at_eval(Interpreter& interp, const Node& f, const Values& args) {
  int64_t i = interp.size_value(at_fields(f).index);
  const Data& x = args.at(0);
  if (i < 0 || i >= static_cast<int64_t>(x.size()))
    user_error(cat("At(", i, "): index out of range for an array of length ", x.size()));
  return x[i];
}

Type get_type(TypeChecker&, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  if (!args[0].is_tuple())
    user_error(cat(name, " expects a tuple, got ", args[0]));
  auto i = get_component(f);
  const auto& members = args[0].elements();
  if (i >= static_cast<int64_t>(members.size()))
    user_error(cat(name, ": component ", i, " is out of range for the tuple ", args[0], " with ",
                   members.size(), " components"));
  return members[i];
}

Data get_eval(Interpreter&, const Node& f, const Values& args) {
  return args.at(0).elements().at(static_cast<std::size_t>(get_component(f)));
}

} // namespace tessera::primitives
