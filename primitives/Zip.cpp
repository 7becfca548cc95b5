// Zip : [A]_n x [B]_n x ... -> [{A,B,...}]_n, element i is the tuple of the inputs' elements i.
#include "core/Error.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type zip_type(TypeChecker&, const Node&, const Types& args) {
  if (args.size() < 2)
    user_error(cat("Zip takes at least 2 arrays, got ", args.size()));
  std::vector<Type> members;
  for (std::size_t i = 0; i < args.size(); ++i) {
    require_array("Zip", args[i], "arrays");
    if (prove_eq(args[i].length(), args[0].length()) != Truth::Yes)
      user_error(cat("Zip expects arrays of equal length, got ", args[0], " (length ",
                     args[0].length().to_string(), ") and ", args[i], " (length ",
                     args[i].length().to_string(), ") as argument ", i));
    members.push_back(args[i].element());
  }
  return Type::array(Type::tuple(std::move(members)), args[0].length());
}

Data zip_eval(Interpreter&, const Node&, const Values& args) {
  std::size_t n = args.at(0).size();
  for (const auto& a : args)
    if (a.size() != n)
      user_error("Zip expects arrays of equal length");
  std::vector<Data> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<Data> members;
    members.reserve(args.size());
    for (const auto& a : args)
      members.push_back(a[i]);
    out.push_back(Data::tuple(std::move(members)));
  }
  return Data::array(std::move(out));
}

} // namespace tessera::primitives
