// Generate(n, g) : -> [T]_n      element i is g(i) with i : i32 (no input array needed)
#include <algorithm>

#include "core/Error.h"
#include "core/Fields.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type generate_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 0);
  return Type::array(checker.apply(f.children[0], {i32()}), generate_fields(f).length);
}

Data generate_eval(Interpreter& interp, const Node& f, const Values&) {
  int64_t n = interp.size_value(generate_fields(f).length);
  std::vector<Data> out;
  out.reserve(static_cast<std::size_t>(std::max<int64_t>(n, 0)));
  for (int64_t i = 0; i < n; ++i)
    out.push_back(
        interp.apply(f.children[0], {Data::scalar(ScalarValue::make(ScalarKind::I32, double(i)))}));
  return Data::array(std::move(out));
}

} // namespace tessera::primitives
