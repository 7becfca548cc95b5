#include "codegen/UserFunctions.h"

#include "codegen/Names.h"
#include "codegen/ScalarC.h"
#include "core/Error.h"

namespace tessera::codegen {

std::string UserFunctions::scalar(const UserFunDef& def, const std::vector<ScalarKind>& kinds) {
  std::string key = def.name;
  for (auto k : kinds)
    key += "_" + to_string(k);
  // Two different functions may share a name: the body is part of the key.
  std::vector<std::string> placeholder_names;
  for (std::size_t i = 0; i < kinds.size(); ++i)
    placeholder_names.push_back(cat("p", i));
  key += "|" + scalar_c(def.body, placeholder_names, kinds);
  auto it = keys_.find(key);
  if (it != keys_.end())
    return it->second;
  std::string name = sanitize(def.name);
  if (is_reserved(name))
    name = "fn_" + name;
  if (reserved_.count(name))
    name += "_fn"; // keep clear of the kernel and its arguments
  for (int suffix = 2; definitions_.count(name); ++suffix)
    name = cat(sanitize(def.name), "_", suffix);
  std::vector<std::string> params = user_fun_param_names(def, kinds.size());
  std::string signature;
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    signature += cat(i ? ", " : "", scalar_c_type(kinds[i]), " ", params[i]);
    if (kinds[i] == ScalarKind::F64)
      fp64_ = true;
  }
  ScalarKind result = def.body.infer(kinds, "UserFun '" + def.name + "'");
  if (result == ScalarKind::F64)
    fp64_ = true;
  calls_[name] = {};
  definitions_[name] = cat(scalar_c_type(result), " ", name, "(", signature, ") { return ",
                           scalar_c(def.body, params, kinds), "; }");
  keys_[key] = name;
  signatures_[name] = {def, kinds, result};
  return name;
}

const UserFunSignature* UserFunctions::signature(const std::string& name) const {
  auto it = signatures_.find(name);
  return it == signatures_.end() ? nullptr : &it->second;
}

std::string UserFunctions::vector(const std::string& scalar_name, int lanes) {
  std::string key = cat(scalar_name, "/", lanes);
  if (auto it = vectors_.find(key); it != vectors_.end())
    return it->second;
  std::string name = cat(scalar_name, "_v", lanes);
  while (definitions_.count(name) || reserved_.count(name))
    name += "_";
  const UserFunSignature& sig = signatures_.at(scalar_name);
  definitions_[name] = vector_user_fun_definition(scalar_name, name, sig, lanes);
  calls_[name] = vector_user_fun_calls_scalar(sig) ? std::set<std::string>{scalar_name}
                                                   : std::set<std::string>{};
  vectors_[key] = name;
  return name;
}

std::string UserFunctions::definitions(const std::set<std::string>& used) const {
  std::string s;
  for (const auto& [name, definition] : definitions_)
    if (used.count(name))
      s += definition + "\n";
  return s;
}

} // namespace tessera::codegen
