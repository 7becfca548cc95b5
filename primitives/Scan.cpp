// Scan(f, init) : [T]_n -> [S]_n, a sequential recurrence with state S, f : (S, T) -> S:
//   s = init;  for i = 0 .. n-1:      s = f(s, x[i]);  out[i] = s
// ScanBackward(f, init) runs the same recurrence from the last element to the first:
//   s = init;  for i = n-1 .. 0:      s = f(s, x[i]);  out[i] = s
// The forward elimination and the back substitution of the Thomas algorithm are one of each.
#include "core/Error.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type scan_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  Type state = checker.check(f.children[1]);
  Type result = checker.apply(f.children[0], {state, in.element()});
  if (result != state)
    user_error(cat(name, ": the function must map (", state, ", ", in.element(), ") to ", state,
                   ", the type of the initial state, but it returns ", result));
  return Type::array(state, in.length());
}

Data scan_eval(Interpreter& interp, const Node& f, const Values& args) {
  const auto& in = args.at(0).elements();
  std::vector<Data> out(in.size());
  Data state = interp.eval(f.children[1]);
  for (std::size_t k = 0; k < in.size(); ++k) {
    std::size_t i = f.backward ? in.size() - 1 - k : k;
    state = interp.apply(f.children[0], {state, in[i]});
    out[i] = state;
  }
  return Data::array(std::move(out));
}

} // namespace tessera::primitives
