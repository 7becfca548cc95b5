// Split(m) : [T]_n -> [[T]_m]_{n/m}     element (i, j) is x[i*m + j]; m must divide n
// Join     : [[T]_m]_n -> [T]_{n*m}     element k is x[k / m][k % m]
#include "core/Error.h"
#include "core/Fields.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type split_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  const ArithExpr& m = split_fields(f).chunk;
  const ArithExpr& n = in.length();
  std::string why = cat(name, ": the chunk size ", m.to_string(), " does not divide the length ",
                        n.to_string(), " of ", in);
  switch (prove_divisible(n, m)) {
  case Truth::No:
    user_error(why);
  case Truth::Unknown:
    checker.assume(n % m, why);
    break;
  case Truth::Yes:
    break;
  }
  return Type::array(Type::array(in.element(), m), n / m);
}

Data split_eval(Interpreter& interp, const Node& f, const Values& args) {
  const Data& x = args.at(0);
  int64_t m = interp.size_value(split_fields(f).chunk);
  auto n = static_cast<int64_t>(x.size());
  if (m <= 0 || n % m != 0)
    user_error(cat("Split(", m, "): the chunk size does not divide the length ", n));
  std::vector<Data> chunks;
  chunks.reserve(static_cast<std::size_t>(n / m));
  for (int64_t i = 0; i < n / m; ++i)
    chunks.push_back(
        Data::array({x.elements().begin() + i * m, x.elements().begin() + (i + 1) * m}));
  return Data::array(std::move(chunks));
}

Type join_type(TypeChecker&, const Node&, const Types& args) {
  require_arity("Join", args, 1);
  const Type& row = require_nested_array("Join", args[0]);
  const Type& in = args[0];
  return Type::array(row.element(), in.length() * row.length());
}

Data join_eval(Interpreter&, const Node&, const Values& args) {
  std::vector<Data> out;
  for (const auto& row : args.at(0).elements())
    for (const auto& x : row.elements())
      out.push_back(x);
  return Data::array(std::move(out));
}

} // namespace tessera::primitives
