#include "core/Json.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/JsonInteger.h"
#include "core/TimeTile.h"

namespace tessera {

using nlohmann::json;

void to_json(json& j, const Type& t) {
  switch (t.kind()) {
  case TypeKind::Scalar:
    j = {{"scalar", to_string(t.scalar_kind())}};
    return;
  case TypeKind::Array:
    j = {{"array", t.element()}, {"length", t.length()}};
    return;
  case TypeKind::Tuple: {
    json members = json::array();
    for (const auto& m : t.elements())
      members.push_back(m);
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
    for (const auto& m : j["tuple"])
      members.push_back(type_from_json(m));
    return Type::tuple(std::move(members));
  }
  user_error("invalid type in JSON: " + j.dump());
}

namespace {

const char* boundary_name(Boundary::Kind k) {
  switch (k) {
  case Boundary::Clamp:
    return "clamp";
  case Boundary::Mirror:
    return "mirror";
  case Boundary::Wrap:
    return "wrap";
  case Boundary::Antisymmetric:
    return "antisymmetric";
  case Boundary::Constant:
    return "constant";
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
      if (it != ids_.end())
        return {{"kind", "Param"}, {"param", it->second}};
      int id = static_cast<int>(ids_.size());
      ids_[&n] = id;
      j["param"] = id;
      if (!n.name.empty())
        j["name"] = n.name;
      if (n.declared_type)
        j["type"] = *n.declared_type;
      if (n.space != AddressSpace::Global)
        j["space"] = address_space_name(n.space);
      return j;
    }
    case NodeKind::Literal:
      j["value"] = n.literal;
      return j;
    case NodeKind::UserFun: {
      const UserFunDef& d = *n.user_fun;
      j["name"] = d.name;
      j["arity"] = d.arity;
      json sig = json::array();
      for (auto k : d.signature)
        sig.push_back(to_string(k));
      j["signature"] = sig;
      if (!d.param_names.empty())
        j["params"] = d.param_names;
      j["body"] = d.body;
      return j;
    }
    case NodeKind::Map:
      j["map"] = map_kind_name(n.map_kind);
      j["dim"] = n.dim;
      break;
    case NodeKind::Reduce:
      j["reduce"] = reduce_kind_name(n.reduce_kind);
      break;
    case NodeKind::Scan:
      j["direction"] = n.backward ? "backward" : "forward";
      break;
    case NodeKind::Pad:
    case NodeKind::TileSlide:
    case NodeKind::TimeTile:
    case NodeKind::StreamSteps:
      j["boundary"] = boundary_name(n.boundary.kind);
      if (n.boundary.kind == Boundary::Constant)
        j["value"] = n.boundary.value;
      break;
    case NodeKind::ToMem:
      j["space"] = address_space_name(n.space);
      break;
    default:
      break;
    }
    if (!n.sizes.empty())
      j["sizes"] = n.sizes;
    if (!n.children.empty()) {
      json children = json::array();
      for (const auto& c : n.children)
        children.push_back(node(c));
      j["children"] = children;
    }
    return j;
  }

private:
  std::map<const Node*, int> ids_;
};

const char* const kInvalidAt = "invalid expression JSON at ";

// Parameters are numbered by order of appearance; a lambda's parameters are in scope in its
// body only.
class Reader {
public:
  // Every error names the node where it was found (a JSON pointer), once: the innermost one.
  Expr node(const json& j, const std::string& where) {
    try {
      return read(j, where);
    } catch (const Error& e) {
      std::string what = e.what();
      if (what.rfind(kInvalidAt, 0) == 0)
        throw;
      fail(where, what);
    } catch (const json::exception& e) {
      fail(where, e.what());
    }
  }

private:
  std::map<int, Expr> params_;

  static Expr stream_steps_from(const std::vector<ArithExpr>& sizes, const Boundary& boundary,
                                const Expr& f, const std::string& where) {
    std::vector<int64_t> values;
    for (const auto& s : sizes) {
      if (!s.as_constant())
        fail(where, "StreamSteps needs constant sizes, got " + s.to_string());
      values.push_back(*s.as_constant());
    }
    const auto tiles_end = values.begin() + 4 + values[0];
    const bool registers = tiles_end != values.end() && *tiles_end == 1;
    return make_stream_steps(static_cast<int>(values[0]), values[1], values[2], boundary,
                             {values.begin() + 5, tiles_end}, values[3], values[4], f,
                             registers ? StreamWindow::Registers : StreamWindow::Local);
  }
  std::set<int> out_of_scope_; // parameters of lambdas that have been read completely

  Expr read(const json& j, const std::string& where) {
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
      fail(where, "expected an object with a \"kind\"");
    std::string kind = j["kind"];
    if (kind == "Param")
      return param(j, where, false);
    if (kind == "Literal")
      return make_literal(scalar_value_from_json(field(j, "value", where)));
    if (kind == "UserFun")
      return user_fun(j, where);
    if (j.contains("children") && !j["children"].is_array())
      fail(where, "\"children\" must be an array");
    if (kind == "Lambda")
      return lambda(j, where);
    std::vector<Expr> children;
    if (j.contains("children"))
      for (std::size_t i = 0; i < j["children"].size(); ++i)
        children.push_back(node(j["children"][i], where + "/children/" + std::to_string(i)));
    std::vector<ArithExpr> sizes;
    if (j.contains("sizes"))
      sizes = j["sizes"].get<std::vector<ArithExpr>>();
    auto need = [&](std::size_t nc, std::size_t ns) {
      if (children.size() != nc || sizes.size() != ns)
        fail(where, cat(kind, " needs ", nc, " child(ren) and ", ns, " size(s), got ",
                        children.size(), " and ", sizes.size()));
    };
    if (kind == "Call") {
      if (children.empty())
        fail(where, "Call needs a function");
      return make_call(children[0], {children.begin() + 1, children.end()});
    }
    if (kind == "Map") {
      need(1, 0);
      std::string m = field(j, "map", where).get<std::string>();
      for (auto k : {MapKind::Map, MapKind::Glb, MapKind::Wrg, MapKind::Lcl, MapKind::Seq,
                     MapKind::SeqUnroll})
        if (m == map_kind_name(k))
          return make_map(k, int_field(j, "dim", where), children[0]);
      fail(where, "unknown map kind '" + m + "'");
    }
    if (kind == "Reduce") {
      need(2, 0);
      std::string r = field(j, "reduce", where).get<std::string>();
      for (auto k : {ReduceKind::Reduce, ReduceKind::Seq, ReduceKind::SeqUnroll})
        if (r == reduce_kind_name(k))
          return make_reduce(k, children[0], children[1]);
      fail(where, "unknown reduce kind '" + r + "'");
    }
    if (kind == "Scan") {
      need(2, 0);
      std::string d = field(j, "direction", where).get<std::string>();
      if (d != "forward" && d != "backward")
        fail(where, "unknown scan direction '" + d + "' (expected forward or backward)");
      return make_scan(children[0], children[1], d == "backward");
    }
    if (kind == "Zip")
      return need(0, 0), make_zip();
    if (kind == "Split")
      return need(0, 1), make_split(sizes[0]);
    if (kind == "Join")
      return need(0, 0), make_join();
    if (kind == "Slide")
      return need(0, 2), make_slide(sizes[0], sizes[1]);
    if (kind == "Pad" || kind == "TileSlide" || kind == "TimeTile" || kind == "StreamSteps") {
      if (kind == "TimeTile" && (children.size() != 1 || sizes.size() < 7 || sizes.size() > 9))
        fail(where, cat("TimeTile needs 1 child and 7 to 9 sizes, got ", children.size(), " and ",
                        sizes.size()));
      else if (kind == "StreamSteps") // [d, k, r, segment, phases, d-1 tiles, window?]
        need(1, sizes.empty() || !sizes[0].as_constant()
                    ? 5
                    : 4 + *sizes[0].as_constant() +
                          (sizes.size() == 5 + static_cast<std::size_t>(*sizes[0].as_constant())));
      else if (kind != "TimeTile")
        need(0, kind == "Pad" ? 2 : 5);
      std::string b = field(j, "boundary", where).get<std::string>();
      for (auto k : {Boundary::Clamp, Boundary::Mirror, Boundary::Wrap, Boundary::Antisymmetric,
                     Boundary::Constant})
        if (b == boundary_name(k)) {
          Boundary boundary{k, {}};
          if (k == Boundary::Constant)
            boundary.value = scalar_value_from_json(field(j, "value", where));
          if (kind == "TimeTile") {
            Node n;
            n.kind = NodeKind::TimeTile;
            n.sizes = sizes;
            return make_time_tile(time_tiling_of(n), boundary, children[0]);
          }
          if (kind == "StreamSteps")
            return stream_steps_from(sizes, boundary, children[0], where);
          if (kind == "TileSlide")
            return make_tile_slide(sizes[0], sizes[1], sizes[2], sizes[3], sizes[4], boundary);
          return make_pad(sizes[0], sizes[1], boundary);
        }
      fail(where, "unknown boundary '" + b +
                      "' (expected clamp, mirror, wrap, antisymmetric or constant)");
    }
    if (kind == "Drop")
      return need(0, 2), make_drop(sizes[0], sizes[1]);
    if (kind == "Transpose")
      return need(0, 0), make_transpose();
    if (kind == "Iterate")
      return need(1, 1), make_iterate(sizes[0], children[0]);
    if (kind == "At")
      return need(0, 1), make_at(sizes[0]);
    if (kind == "Get") {
      need(0, 1);
      if (!sizes[0].is_constant())
        fail(where, "Get needs a constant index");
      return make_get(static_cast<int>(sizes[0].value()));
    }
    if (kind == "Generate")
      return need(1, 1), make_generate(sizes[0], children[0]);
    if (kind == "ToMem") {
      need(1, 0);
      std::string s = field(j, "space", where).get<std::string>();
      for (auto k : {AddressSpace::Global, AddressSpace::Local, AddressSpace::Private})
        if (s == address_space_name(k))
          return make_to_mem(k, children[0]);
      fail(where, "unknown address space '" + s + "'");
    }
    fail(where, "unknown kind '" + kind + "'");
  }

  // Lambda: its parameters (which it may share with another lambda), then its body.
  Expr lambda(const json& j, const std::string& where) {
    if (!j.contains("children") || j["children"].size() < 2)
      fail(where, "Lambda needs parameters and a body");
    const json& children = j["children"];
    std::vector<Expr> params;
    std::vector<int> ids;
    for (std::size_t i = 0; i + 1 < children.size(); ++i) {
      const json& c = children[i];
      std::string at = where + "/children/" + std::to_string(i);
      if (c.is_object() && c.contains("kind") && c["kind"] == "Param") {
        try {
          params.push_back(param(c, at, true));
        } catch (const Error& e) {
          std::string what = e.what();
          if (what.rfind(kInvalidAt, 0) == 0)
            throw;
          fail(at, what);
        }
        ids.push_back(c["param"].get<int>());
      } else {
        params.push_back(node(c, at)); // not a Param: make_lambda reports it
      }
    }
    Expr body = node(children.back(), where + "/children/" + std::to_string(children.size() - 1));
    Expr result = make_lambda(std::move(params), std::move(body));
    for (int id : ids)
      out_of_scope_.insert(id);
    return result;
  }

  [[noreturn]] static void fail(const std::string& where, const std::string& what) {
    user_error(cat("invalid expression JSON at ", where.empty() ? "/" : where, ": ", what));
  }

  static const json& field(const json& j, const char* key, const std::string& where) {
    if (!j.contains(key))
      fail(where, cat("missing \"", key, "\""));
    return j[key];
  }

  static int int_field(const json& j, const char* key, const std::string& where) {
    const json& v = field(j, key, where);
    if (auto i = json_integer<int>(v))
      return *i;
    fail(where, cat("\"", key, "\" must be an integer of 32 bits, got ", v.dump()));
  }

  // A parameter: defined at its first appearance (with its name and type), which must come in
  // order of ids; later appearances refer to it. `binding`: a lambda's parameter list.
  Expr param(const json& j, const std::string& where, bool binding) {
    const json& id_json = field(j, "param", where);
    if (!id_json.is_number_integer())
      fail(where, "\"param\" must be an integer");
    if (id_json.get<int64_t>() < 0 || id_json.get<int64_t>() > 1000000000)
      fail(where, cat("parameter id ", id_json.dump(), " is out of range"));
    int id = id_json;
    auto it = params_.find(id);
    if (it != params_.end()) {
      if (binding)
        out_of_scope_.erase(id);
      else if (out_of_scope_.count(id))
        fail(where, cat("parameter ", id, " is used outside the lambda that defines it"));
      return it->second;
    }
    if (id != static_cast<int>(params_.size()))
      fail(where, cat("parameter ", id,
                      " is used before it is defined (parameters are numbered "
                      "in order of appearance: the next new one is ",
                      params_.size(), ")"));
    std::optional<Type> type;
    if (j.contains("type"))
      type = type_from_json(j["type"]);
    Expr p = make_param(j.value("name", std::string()), type);
    if (j.contains("space")) {
      const json& s = j["space"];
      std::optional<AddressSpace> space;
      for (auto k : {AddressSpace::Global, AddressSpace::Constant, AddressSpace::Image,
                     AddressSpace::ImageClampToEdge, AddressSpace::ImageClamp})
        if (s.is_string() && s == address_space_name(k))
          space = k;
      if (!space)
        fail(where, cat("an input's \"space\" is \"Global\" or \"Constant\" (or an image: "
                        "\"Image\", \"ImageClampToEdge\", \"ImageClamp\"), got ",
                        s.dump()));
      p = make_placed_input(p, *space);
    }
    params_[id] = p;
    return p;
  }

  Expr user_fun(const json& j, const std::string& where) {
    auto def = std::make_shared<UserFunDef>();
    def->name = field(j, "name", where).get<std::string>();
    def->arity = int_field(j, "arity", where);
    if (j.contains("signature")) {
      if (!j["signature"].is_array())
        fail(where, "\"signature\" must be an array");
      for (const auto& k : j["signature"])
        def->signature.push_back(scalar_kind_from_string(k));
    }
    if (j.contains("params")) {
      if (!j["params"].is_array())
        fail(where, "\"params\" must be an array of parameter names");
      for (const auto& p : j["params"]) {
        if (!p.is_string())
          fail(where, "\"params\" must be an array of parameter names");
        def->param_names.push_back(p.get<std::string>());
      }
    }
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
  // Every problem is a tessera::Error: no exception of nlohmann's escapes.
  try {
    if (!j.is_object() || !j.contains("format"))
      user_error("not a tessera expression: expected an object with \"format\": \"tessera-expr\"");
    if (!j["format"].is_string() || j["format"] != "tessera-expr")
      user_error(cat("not a tessera expression: \"format\" must be the string \"tessera-expr\", "
                     "got ",
                     j["format"].dump()));
    if (!j.contains("version"))
      user_error("tessera expression without a \"version\": this build reads version 1");
    if (!j["version"].is_number_integer() || j["version"] != 1)
      user_error(cat("unsupported tessera expression version ", j["version"].dump(),
                     ": this build reads version 1"));
    if (!j.contains("expr"))
      user_error("invalid expression JSON: missing \"expr\"");
    Reader r;
    return r.node(j["expr"], "/expr");
  } catch (const json::exception& e) {
    user_error(cat("invalid expression JSON: ", e.what()));
  }
}

std::string save_expr(const Expr& e) {
  return expr_to_json(e).dump(2) + "\n";
}

Expr load_expr(const std::string& text) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& e) {
    // parse_error, and out_of_range for a number that overflows a double (1e400)
    user_error(cat("expression file is not valid JSON: ", e.what()));
  }
  return expr_from_json(j);
}

void save_expr_file(const Expr& e, const std::string& path) {
  write_file_atomically(path, save_expr(e));
}

Expr load_expr_file(const std::string& path) {
  std::error_code ec;
  auto status = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(status))
    user_error(cat("cannot read expression file '", path, "': it is a directory"));
  if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    user_error(cat("cannot read expression file '", path, "': it is not a regular file"));
  std::ifstream in(path);
  if (!in)
    user_error("cannot read expression file '" + path + "'");
  std::stringstream buffer;
  buffer << in.rdbuf();
  if (in.bad())
    user_error("cannot read expression file '" + path + "'");
  // Errors in the contents name the file.
  try {
    return load_expr(buffer.str());
  } catch (const Error& e) {
    user_error(cat("in '", path, "': ", e.what()));
  }
}

} // namespace tessera
