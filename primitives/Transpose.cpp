// Transpose : [[T]_m]_n -> [[T]_n]_m      element (i, j) -> x[j][i]
#include "core/Error.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type transpose_type(TypeChecker&, const Node&, const Types& args) {
  require_arity("Transpose", args, 1);
  const Type& in = require_array("Transpose", args[0], "an array of arrays");
  const Type& row = require_array("Transpose", in.element(), "an array of arrays");
  return Type::array(Type::array(row.element(), in.length()), row.length());
}

Data transpose_eval(Interpreter&, const Node&, const Values& args) {
  const Data& x = args.at(0);
  std::size_t n = x.size(), m = n ? x[0].size() : 0;
  std::vector<Data> rows;
  for (std::size_t i = 0; i < m; ++i) {
    std::vector<Data> row;
    for (std::size_t j = 0; j < n; ++j) row.push_back(x[j][i]);
    rows.push_back(Data::array(std::move(row)));
  }
  return Data::array(std::move(rows));
}

} // namespace tessera::primitives
