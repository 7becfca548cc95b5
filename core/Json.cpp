#include "core/Json.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/Error.h"

namespace tessera {

using nlohmann::json;

void to_json(json& j, const Type& t) {
  switch (t.kind()) {
  case TypeKind::Scalar: j = {{"scalar", to_string(t.scalar_kind())}}; return;
  case TypeKind::Array: j = {{"array", t.element()}, {"length", t.length()}}; return;
  case TypeKind::Tuple: {
    json members = json::array();
    for (const auto& m : t.elements()) members.push_back(m);
    j = {{"tuple", members}};
    return;
  }
  }
}

Type type_from_json(const json& j) {
  if (j.is_object() && j.contains("scalar") && j["scalar"].is_string())
    return Type::scalar(scalar_kind_from_string(j["scalar"]));
  if (j.is_object() && j.contains("array") && j.contains("length"))
    return Type::array(type_from_json(j["array"]), j["length"].get<ArithExpr>());
  if (j.is_object() && j.contains("tuple") && j["tuple"].is_array()) {
    std::vector<Type> members;
    for (const auto& m : j["tuple"]) members.push_back(type_from_json(m));
    return Type::tuple(std::move(members));
  }
  user_error("invalid type in JSON: " + j.dump());
}

namespace {

const char* boundary_name(Boundary::Kind k) {
  switch (k) {
  case Boundary::Clamp: return "clamp";
  case Boundary::Mirror: return "mirror";
  case Boundary::Wrap: return "wrap";
  case Boundary::Constant: return "constant";
  }
  return "?";
}

class Writer {
public:
  json node(const Expr& e) {
    const Node& n = *e;
    json j = {{"kind", kind_name(n.kind)}};
    switch (n.kind) {
    case NodeKind::Param: {
      auto it = ids_.find(&n);
      if (it != ids_.end()) return {{"kind", "Param"}, {"param", it->second}};
      int id = static_cast<int>(ids_.size());
      ids_[&n] = id;
      j["param"] = id;
      if (!n.name.empty()) j["name"] = n.name;
      if (n.declared_type) j["type"] = *n.declared_type;
      return j;
    }
    case NodeKind::Literal: j["value"] = n.literal; return j;
    case NodeKind::UserFun: {
      const UserFunDef& d = *n.user_fun;
      j["name"] = d.name;
      j["arity"] = d.arity;
      json sig = json::array();
      for (auto k : d.signature) sig.push_back(to_string(k));
      j["signature"] = sig;
      j["body"] = d.body;
      return j;
    }
    case NodeKind::Map:
      j["map"] = map_kind_name(n.map_kind);
      j["dim"] = n.dim;
      break;
    case NodeKind::Reduce: j["reduce"] = reduce_kind_name(n.reduce_kind); break;
    case NodeKind::Pad:
      j["boundary"] = boundary_name(n.boundary.kind);
      if (n.boundary.kind == Boundary::Constant) j["value"] = n.boundary.value;
      break;
    case NodeKind::ToMem: j["space"] = address_space_name(n.space); break;
    default: break;
    }
    if (!n.sizes.empty()) j["sizes"] = n.sizes;
    if (!n.children.empty()) {
      json children = json::array();
      for (const auto& c : n.children) children.push_back(node(c));
      j["children"] = children;
    }
    return j;
  }

private:
  std::map<const Node*, int> ids_;
};

class Reader {
public:
  Expr node(const json& j, const std::string& where) {
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
      fail(where, "expected an object with a \"kind\"");
    std::string kind = j["kind"];
    if (kind == "Param") return param(j, where);
    if (kind == "Literal") return make_literal(scalar_value_from_json(field(j, "value", where)));
    if (kind == "UserFun") return user_fun(j, where);
    std::vector<Expr> children;
    if (j.contains("children")) {
      if (!j["children"].is_array()) fail(where, "\"children\" must be an array");
      for (std::size_t i = 0; i < j["children"].size(); ++i)
        children.push_back(node(j["children"][i], where + "/children/" + std::to_string(i)));
    }
    std::vector<ArithExpr> sizes;
    if (j.contains("sizes")) sizes = j["sizes"].get<std::vector<ArithExpr>>();
    auto need = [&](std::size_t nc, std::size_t ns) {
      if (children.size() != nc || sizes.size() != ns)
        fail(where, cat(kind, " needs ", nc, " child(ren) and ", ns, " size(s), got ",
                        children.size(), " and ", sizes.size()));
    };
    if (kind == "Call") {
      if (children.empty()) fail(where, "Call needs a function");
      return make_call(children[0], {children.begin() + 1, children.end()});
    }
    if (kind == "Lambda") {
      if (children.size() < 2) fail(where, "Lambda needs parameters and a body");
      return make_lambda({children.begin(), children.end() - 1}, children.back());
    }
    if (kind == "Map") {
      need(1, 0);
      std::string m = field(j, "map", where).get<std::string>();
      for (auto k : {MapKind::Map, MapKind::Glb, MapKind::Wrg, MapKind::Lcl, MapKind::Seq,
                     MapKind::SeqUnroll})
        if (m == map_kind_name(k)) return make_map(k, field(j, "dim", where).get<int>(), children[0]);
      fail(where, "unknown map kind '" + m + "'");
    }
    if (kind == "Reduce") {
      need(2, 0);
      std::string r = field(j, "reduce", where).get<std::string>();
      for (auto k : {ReduceKind::Reduce, ReduceKind::Seq, ReduceKind::SeqUnroll})
        if (r == reduce_kind_name(k)) return make_reduce(k, children[0], children[1]);
      fail(where, "unknown reduce kind '" + r + "'");
    }
    if (kind == "Zip") return need(0, 0), make_zip();
    if (kind == "Split") return need(0, 1), make_split(sizes[0]);
    if (kind == "Join") return need(0, 0), make_join();
    if (kind == "Slide") return need(0, 2), make_slide(sizes[0], sizes[1]);
    if (kind == "Pad") {
      need(0, 2);
      std::string b = field(j, "boundary", where).get<std::string>();
      for (auto k : {Boundary::Clamp, Boundary::Mirror, Boundary::Wrap, Boundary::Constant})
        if (b == boundary_name(k)) {
          Boundary boundary{k, {}};
          if (k == Boundary::Constant)
            boundary.value = scalar_value_from_json(field(j, "value", where));
          return make_pad(sizes[0], sizes[1], boundary);
        }
      fail(where, "unknown boundary '" + b + "'");
    }
    if (kind == "Drop") return need(0, 2), make_drop(sizes[0], sizes[1]);
    if (kind == "Transpose") return need(0, 0), make_transpose();
    if (kind == "Iterate") return need(1, 1), make_iterate(sizes[0], children[0]);
    if (kind == "At") return need(0, 1), make_at(sizes[0]);
    if (kind == "Get") {
      need(0, 1);
      if (!sizes[0].is_constant()) fail(where, "Get needs a constant index");
      return make_get(static_cast<int>(sizes[0].value()));
    }
    if (kind == "Generate") return need(1, 1), make_generate(sizes[0], children[0]);
    if (kind == "ToMem") {
      need(1, 0);
      std::string s = field(j, "space", where).get<std::string>();
      for (auto k : {AddressSpace::Global, AddressSpace::Local, AddressSpace::Private})
        if (s == address_space_name(k)) return make_to_mem(k, children[0]);
      fail(where, "unknown address space '" + s + "'");
    }
    fail(where, "unknown kind '" + kind + "'");
  }

private:
  std::map<int, Expr> params_;

  [[noreturn]] static void fail(const std::string& where, const std::string& what) {
    user_error(cat("invalid expression JSON at ", where.empty() ? "/" : where, ": ", what));
  }

  static const json& field(const json& j, const char* key, const std::string& where) {
    if (!j.contains(key)) fail(where, cat("missing \"", key, "\""));
    return j[key];
  }

  Expr param(const json& j, const std::string& where) {
    const json& id_json = field(j, "param", where);
    if (!id_json.is_number_integer()) fail(where, "\"param\" must be an integer");
    int id = id_json;
    auto it = params_.find(id);
    if (it != params_.end()) return it->second;
    std::optional<Type> type;
    if (j.contains("type")) type = type_from_json(j["type"]);
    Expr p = make_param(j.value("name", std::string()), type);
    params_[id] = p;
    return p;
  }

  Expr user_fun(const json& j, const std::string& where) {
    auto def = std::make_shared<UserFunDef>();
    def->name = field(j, "name", where).get<std::string>();
    def->arity = field(j, "arity", where).get<int>();
    if (j.contains("signature"))
      for (const auto& k : j["signature"]) def->signature.push_back(scalar_kind_from_string(k));
    def->body = scalar_expr_from_json(field(j, "body", where));
    return make_user_fun(def);
  }
};

} // namespace

json expr_to_json(const Expr& e) {
  Writer w;
  return {{"format", "tessera-expr"}, {"version", 1}, {"expr", w.node(e)}};
}

Expr expr_from_json(const json& j) {
  if (!j.is_object() || j.value("format", "") != "tessera-expr")
    user_error("not a tessera expression: expected an object with \"format\": \"tessera-expr\"");
  if (j.value("version", 0) != 1)
    user_error(cat("unsupported tessera expression version ", j.value("version", 0),
                   ": this build reads version 1"));
  if (!j.contains("expr")) user_error("invalid expression JSON: missing \"expr\"");
  Reader r;
  try {
    return r.node(j["expr"], "/expr");
  } catch (const json::exception& e) {
    user_error(cat("invalid expression JSON: ", e.what()));
  }
}

std::string save_expr(const Expr& e) { return expr_to_json(e).dump(2) + "\n"; }

Expr load_expr(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    user_error(cat("expression file is not valid JSON: ", e.what()));
  }
  return expr_from_json(j);
}

void save_expr_file(const Expr& e, const std::string& path) {
  std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    if (!out) user_error("cannot write '" + tmp + "'");
    out << save_expr(e);
    if (!out.flush()) user_error("cannot write '" + tmp + "'");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) user_error(cat("cannot rename '", tmp, "' to '", path, "': ", ec.message()));
}

Expr load_expr_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) user_error("cannot read expression file '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return load_expr(buffer.str());
}

} // namespace tessera
