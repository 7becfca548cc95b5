// Reduce(f, init) : [T]_n -> [U]_1, a left fold with f : (U, T) -> U:
//   Reduce(f, z) $ [x0, ..., x(n-1)] = [f(...f(f(z, x0), x1)..., x(n-1))]
#include "core/Error.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type reduce_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  Type acc = checker.check(f.children[1]);
  Type result = checker.apply(f.children[0], {acc, in.element()});
  if (result != acc)
    user_error(cat(name, ": the function must map (", acc, ", ", in.element(), ") to ", acc,
                   ", the type of the initial value, but it returns ", result));
  return Type::array(acc, 1);
}

Data reduce_eval(Interpreter& interp, const Node& f, const Values& args) {
  Values step{interp.eval(f.children[1]), Data()}; // (accumulator, element), reused
  for (const auto& x : args.at(0).elements()) {
    step[1] = x;
    step[0] = interp.apply(f.children[0], step);
  }
  return Data::array({std::move(step[0])});
}

} // namespace tessera::primitives
