#include "core/Json.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/Fields.h"
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
  case Boundary::Fixed:
    return "fixed";
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

  std::set<int> out_of_scope_; // parameters of lambdas that have been read completely

  Expr read(const json& j, const std::string& where) {
    const std::string kind = kind_of(j, where);
    if (kind == "Param" || kind == "Literal" || kind == "UserFun")
      return leaf(j, where, kind);
    if (kind == "Lambda")
      return lambda(j, where);
    return build(j, where, kind, children_of(j, where));
  }

  [[gnu::noinline]] static std::string kind_of(const json& j, const std::string& where) {
    if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string())
      fail(where, "expected an object with a \"kind\"");
    if (j.contains("children") && !j["children"].is_array())
      fail(where, "\"children\" must be an array");
    return j["kind"].get<std::string>();
  }

  [[gnu::noinline]] Expr leaf(const json& j, const std::string& where, const std::string& kind) {
    if (kind == "Param")
      return param(j, where, false);
    if (kind == "Literal")
      return make_literal(scalar_value_from_json(field(j, "value", where)));
    return user_fun(j, where);
  }

  // The recursion of the reader runs through node, read and children_of only: their frames stay
  // small (a program at the nesting limit needs about 1000 of each on the stack, also in the
  // sanitizers' builds, whose frames are several times larger), and build's, which holds every
  // kind's fields, is not on the recursion's path.
  [[gnu::noinline]] std::vector<Expr> children_of(const json& j, const std::string& where) {
    std::vector<Expr> children;
    if (j.contains("children"))
      for (std::size_t i = 0; i < j["children"].size(); ++i)
        children.push_back(node(j["children"][i], where + "/children/" + std::to_string(i)));
    return children;
  }

  [[gnu::noinline]] Expr build(const json& j, const std::string& where, const std::string& kind,
                               const std::vector<Expr>& children) {
    std::vector<ArithExpr> sizes;
    if (j.contains("sizes"))
      sizes = j["sizes"].get<std::vector<ArithExpr>>();
    auto need = [&](std::size_t nc) {
      if (children.size() != nc)
        fail(where, cat(kind, " needs ", nc, " child(ren), got ", children.size()));
    };
    if (kind == "Call") {
      if (children.empty())
        fail(where, "Call needs a function");
      return make_call(children[0], {children.begin() + 1, children.end()});
    }
    const std::optional<NodeKind> k = function_kind(kind);
    if (!k)
      fail(where, "unknown kind '" + kind + "'");
    check_size_count(*k, sizes); // the sizes by name: core/Fields.h
    Node n;                      // the sizes, read by name below
    n.kind = *k;
    n.sizes = sizes;
    switch (*k) {
    case NodeKind::Map: {
      need(1);
      std::string m = field(j, "map", where).get<std::string>();
      for (auto mk : {MapKind::Map, MapKind::Glb, MapKind::Wrg, MapKind::Lcl, MapKind::Seq,
                      MapKind::SeqUnroll})
        if (m == map_kind_name(mk))
          return make_map(mk, int_field(j, "dim", where), children[0]);
      fail(where, "unknown map kind '" + m + "'");
    }
    case NodeKind::Reduce: {
      need(2);
      std::string r = field(j, "reduce", where).get<std::string>();
      for (auto rk : {ReduceKind::Reduce, ReduceKind::Seq, ReduceKind::SeqUnroll})
        if (r == reduce_kind_name(rk))
          return make_reduce(rk, children[0], children[1]);
      fail(where, "unknown reduce kind '" + r + "'");
    }
    case NodeKind::Scan: {
      need(2);
      std::string d = field(j, "direction", where).get<std::string>();
      if (d != "forward" && d != "backward")
        fail(where, "unknown scan direction '" + d + "' (expected forward or backward)");
      return make_scan(children[0], children[1], d == "backward");
    }
    case NodeKind::Zip:
      return need(0), make_zip();
    case NodeKind::Split:
      return need(0), make_split(split_fields(n).chunk);
    case NodeKind::Join:
      return need(0), make_join();
    case NodeKind::Slide: {
      need(0);
      auto [size, step] = slide_fields(n);
      return make_slide(size, step);
    }
    case NodeKind::Pad: {
      need(0);
      auto [left, right] = pad_fields(n);
      return make_pad(left, right, boundary(j, where));
    }
    case NodeKind::TileSlide: {
      need(0);
      auto t = tile_slide_fields(n);
      return make_tile_slide(t.size, t.offset, t.extent, t.tile, t.halo, boundary(j, where));
    }
    case NodeKind::TimeTile:
      need(1);
      return make_time_tile(time_tiling_of(n), boundary(j, where), children[0]);
    case NodeKind::StreamSteps: {
      need(1);
      StreamStepsFields f = stream_steps_fields(n);
      return make_stream_steps(f.dims, f.steps, f.radius, boundary(j, where), f.tiles, f.segment,
                               f.phases, children[0], f.window);
    }
    case NodeKind::Drop: {
      need(0);
      auto [left, right] = drop_fields(n);
      return make_drop(left, right);
    }
    case NodeKind::Transpose:
      return need(0), make_transpose();
    case NodeKind::Iterate:
      return need(1), make_iterate(iterate_fields(n).times, children[0]);
    case NodeKind::At:
      return need(0), make_at(at_fields(n).index);
    case NodeKind::Get:
      return need(0), make_get(get_component(n));
    case NodeKind::Generate:
      return need(1), make_generate(generate_fields(n).length, children[0]);
    case NodeKind::ToMem: {
      need(1);
      std::string s = field(j, "space", where).get<std::string>();
      for (auto a : {AddressSpace::Global, AddressSpace::Local, AddressSpace::Private})
        if (s == address_space_name(a))
          return make_to_mem(a, children[0]);
      fail(where, "unknown address space '" + s + "'");
    }
    case NodeKind::Lambda:  // read by lambda()
    case NodeKind::UserFun: // read by user_fun()
    case NodeKind::Param:
    case NodeKind::Literal:
    case NodeKind::Call:
      break;
    }
    fail(where, "unknown kind '" + kind + "'");
  }

  // Lambda: its parameters (which it may share with another lambda), then its body.
  [[gnu::noinline]] Expr lambda(const json& j, const std::string& where) {
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

  // Pad, TileSlide, TimeTile and StreamSteps: "boundary" (and "value" for constant).
  static Boundary boundary(const json& j, const std::string& where) {
    std::string b = field(j, "boundary", where).get<std::string>();
    for (auto k : {Boundary::Clamp, Boundary::Mirror, Boundary::Wrap, Boundary::Antisymmetric,
                   Boundary::Constant})
      if (b == boundary_name(k)) {
        Boundary boundary{k, {}};
        if (k == Boundary::Constant)
          boundary.value = scalar_value_from_json(field(j, "value", where));
        return boundary;
      }
    if (b == boundary_name(Boundary::Fixed))
      try {
        require_pad_boundary(Boundary::fixed(), "a node's \"boundary\"");
      } catch (const Error& e) {
        fail(where, e.what());
      }
    fail(where,
         "unknown boundary '" + b + "' (expected clamp, mirror, wrap, antisymmetric or constant)");
  }

  // The function kind spelled `kind` (the node-kind list's names).
  static std::optional<NodeKind> function_kind(const std::string& kind) {
#define TESSERA_KIND_MATCH(name)                                                                   \
  if (kind == #name)                                                                               \
    return NodeKind::name;
    TESSERA_FOR_EACH_FUNCTION_KIND(TESSERA_KIND_MATCH)
#undef TESSERA_KIND_MATCH
    return std::nullopt;
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

// Each node of a program is a JSON object with a "kind", and takes two levels of JSON (its
// object and its "children" array); leaves add a few (a parameter's type). A user function's
// body is a tree of scalar operations, two levels each, built left-nested by inline arithmetic:
// a 729-point weighted sum is about 1,460 levels deep; 2,048 operations deep are allowed.
constexpr int kMaxScalarBodyDepth = 2048;
constexpr int kMaxJsonDepth = 2 * kMaxExprDepth + 2 * kMaxScalarBodyDepth + 64;

// The reader recurses over the document: one nested deeper than the programs tessera builds
// (a file of 20,000 nested Pads) is refused before it starts, measured without recursion.
void check_nesting(const json& document) {
  struct Pending {
    const json* value;
    int json_depth, node_depth;
  };
  std::vector<Pending> pending{{&document, 1, 0}};
  while (!pending.empty()) {
    Pending p = pending.back();
    pending.pop_back();
    if (p.value->is_object() && p.value->contains("kind"))
      ++p.node_depth;
    if (p.node_depth > kMaxExprDepth)
      user_error(cat("the expression is nested deeper than ", kMaxExprDepth,
                     " levels, the most tessera reads and builds (its passes recurse over the "
                     "nesting)"));
    if (p.json_depth > kMaxJsonDepth)
      user_error(cat("the document is nested deeper than ", kMaxJsonDepth,
                     " JSON levels (a program of at most ", kMaxExprDepth,
                     " nested nodes whose user functions' bodies are at most ", kMaxScalarBodyDepth,
                     " operations deep), the most tessera reads"));
    if (p.value->is_structured())
      for (const auto& child : *p.value)
        pending.push_back({&child, p.json_depth + 1, p.node_depth});
  }
}

} // namespace

json expr_to_json(const Expr& e) {
  Writer w;
  // Version 2: chains of sums, differences and products as one node of 2 operands or more
  // (ScalarJson.cpp); version 1 files, binary nodes only, are read as before.
  return {{"format", "tessera-expr"}, {"version", 2}, {"expr", w.node(e)}};
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
      user_error("tessera expression without a \"version\": this build reads versions 1 and 2");
    if (!j["version"].is_number_integer() || (j["version"] != 1 && j["version"] != 2))
      user_error(cat("unsupported tessera expression version ", j["version"].dump(),
                     ": this build reads versions 1 and 2"));
    if (!j.contains("expr"))
      user_error("invalid expression JSON: missing \"expr\"");
    check_nesting(j["expr"]);
    Reader r;
    return r.node(j["expr"], "/expr");
  } catch (const json::exception& e) {
    user_error(cat("invalid expression JSON: ", e.what()));
  }
}

std::string save_expr(const Expr& e) {
  // Compact: a 729-point stencil is a few hundred kB instead of several MB pretty-printed.
  return expr_to_json(e).dump() + "\n";
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
