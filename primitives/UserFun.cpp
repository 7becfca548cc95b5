// UserFun : (s1, ..., sk) -> s   a scalar function written in the scalar language.
#include <array>

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

namespace {

// The name a function's errors are reported under ("UserFun 'add'"), made once per function and
// thread: the interpreter evaluates a few functions at every point of a grid, and formatting the
// name at each evaluation was a third of the interpreter's time. The name is compared too, so a
// function allocated where a freed one was is not given its name.
const std::string& error_context(const Node& f) {
  struct Described {
    const UserFunDef* fun = nullptr;
    std::string name, description;
  };
  constexpr std::size_t kKept = 8;
  thread_local std::array<Described, kKept> kept;
  thread_local std::size_t next = 0;
  for (const auto& d : kept)
    if (d.fun == f.user_fun.get() && d.name == f.user_fun->name)
      return d.description;
  Described& d = kept[next++ % kKept];
  d = {f.user_fun.get(), f.user_fun->name, describe(f)};
  return d.description;
}

} // namespace

Data user_fun_eval(Interpreter&, const Node& f, const Values& args) {
  thread_local std::vector<ScalarValue> values; // reused: a body evaluates no other function
  values.clear();
  for (const auto& a : args)
    values.push_back(a.as_scalar());
  return Data::scalar(f.user_fun->body.evaluate(values, error_context(f)));
}

} // namespace tessera::primitives
