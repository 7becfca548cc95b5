// Map(f) : [T]_n -> [U]_n with f : T -> U, and its OpenCL forms MapGlb/MapWrg/MapLcl/MapSeq/
// MapSeqUnroll, which differ only in how the generated code distributes the iterations.
#include "core/Error.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type map_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  return Type::array(checker.apply(f.children[0], {in.element()}), in.length());
}

Data map_eval(Interpreter& interp, const Node& f, const Values& args) {
  std::vector<Data> out;
  out.reserve(args.at(0).size());
  Values element(1); // one argument vector for every element (no allocation per element)
  for (const auto& x : args.at(0).elements()) {
    element[0] = x;
    out.push_back(interp.apply(f.children[0], element));
  }
  return Data::array(std::move(out));
}

} // namespace tessera::primitives
