// Transpose : [[T]_m]_n -> [[T]_n]_m      element (i, j) -> x[j][i]
// Of an empty array (n = 0) it gives m empty rows: the row length m comes from the type, which
// the type rule records for the interpreter (an empty value does not show it).
#include "core/Error.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type transpose_type(TypeChecker& checker, const Node& f, const Types& args) {
  require_arity("Transpose", args, 1);
  const Type& row = require_nested_array("Transpose", args[0]);
  const Type& in = args[0];
  checker.record_argument(&f, in);
  return Type::array(Type::array(row.element(), in.length()), row.length());
}

Data transpose_eval(Interpreter& interp, const Node& f, const Values& args) {
  const Data& x = args.at(0);
  std::size_t n = x.size(), m = 0;
  if (n > 0) {
    m = x[0].size();
  } else {
    const Type* in = interp.argument_type(f);
    if (!in)
      user_error("Transpose of an empty array: the row length is not known here (it comes from "
                 "the argument's type: run the program with evaluate(), and apply this Transpose "
                 "to arguments of one type only)");
    m = static_cast<std::size_t>(interp.size_value(in->element().length()));
  }
  std::vector<Data> rows;
  rows.reserve(m);
  for (std::size_t i = 0; i < m; ++i) {
    std::vector<Data> row;
    row.reserve(n);
    for (std::size_t j = 0; j < n; ++j)
      row.push_back(x[j][i]);
    rows.push_back(Data::array(std::move(row)));
  }
  return Data::array(std::move(rows));
}

} // namespace tessera::primitives
