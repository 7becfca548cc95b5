// Slide(size, step) : [T]_n -> [[T]_size]_{(n - size + step) / step}
//   window w, element e  ->  x[w*step + e]; the windows must fit exactly: (n - size) % step == 0
#include "core/Error.h"
#include "core/Fields.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type slide_type(TypeChecker& checker, const Node& f, const Types& args) {
  std::string name = describe(f);
  require_arity(name.c_str(), args, 1);
  const Type& in = require_array(name.c_str(), args[0]);
  const auto [size, step] = slide_fields(f);
  const ArithExpr& n = in.length();
  require_le(checker, size, n,
             cat(name, ": the window size ", size.to_string(), " is larger than the length ",
                 n.to_string(), " of ", in));
  std::string why =
      cat(name, ": the windows do not fit exactly: (length - size) = ", (n - size).to_string(),
          " is not a multiple of the step ", step.to_string(), " for ", in);
  switch (prove_divisible(n - size, step)) {
  case Truth::No:
    user_error(why);
  case Truth::Unknown:
    checker.assume((n - size) % step, why);
    break;
  case Truth::Yes:
    break;
  }
  return Type::array(Type::array(in.element(), size), (n - size + step) / step);
}

Data slide_eval(Interpreter& interp, const Node& f, const Values& args) {
  const Data& x = args.at(0);
  const SlideFields fields = slide_fields(f);
  int64_t size = interp.size_value(fields.size), step = interp.size_value(fields.step);
  auto n = static_cast<int64_t>(x.size());
  if (size > n || (n - size) % step != 0)
    user_error(cat("Slide(", size, ",", step, "): the windows do not fit exactly in length ", n));
  std::vector<Data> windows;
  windows.reserve(static_cast<std::size_t>((n - size) / step + 1));
  for (int64_t w = 0; w * step + size <= n; ++w)
    windows.push_back(
        Data::array({x.elements().begin() + w * step, x.elements().begin() + w * step + size}));
  return Data::array(std::move(windows));
}

} // namespace tessera::primitives
