// UserFun : (s1, ..., sk) -> s   a scalar function written in the scalar language.
#include "core/Error.h"
#include "primitives/Primitives.h"

namespace tessera::primitives {

Type user_fun_type(TypeChecker&, const Node& f, const Types& args) {
  const UserFunDef& def = *f.user_fun;
  std::string name = describe(f);
  if (static_cast<int>(args.size()) != def.arity)
    user_error(cat(name, " takes ", def.arity, " argument(s), got ", args.size()));
  std::vector<ScalarKind> kinds;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].is_scalar())
      user_error(cat(name, ": argument ", i, " must be a scalar, got ", args[i]));
    if (!def.signature.empty() && def.signature[i] != args[i].scalar_kind())
      user_error(
          cat(name, ": argument ", i, " must be ", to_string(def.signature[i]), ", got ", args[i]));
    kinds.push_back(args[i].scalar_kind());
  }
  return Type::scalar(def.body.infer(kinds, name));
}

Data user_fun_eval(Interpreter&, const Node& f, const Values& args) {
  std::vector<ScalarValue> values;
  for (const auto& a : args)
    values.push_back(a.as_scalar());
  return Data::scalar(f.user_fun->body.evaluate(values, describe(f)));
}

} // namespace tessera::primitives
