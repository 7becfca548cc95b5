#include "core/Substitute.h"

#include <functional>
#include <unordered_map>

#include "core/Error.h"

namespace tessera {

Type substitute_sizes(const Type& t, const std::map<std::string, ArithExpr>& sizes) {
  switch (t.kind()) {
  case TypeKind::Scalar:
    return t;
  case TypeKind::Array:
    return Type::array(substitute_sizes(t.element(), sizes), t.length().substitute(sizes));
  case TypeKind::Tuple: {
    std::vector<Type> members;
    for (const auto& m : t.elements())
      members.push_back(substitute_sizes(m, sizes));
    return Type::tuple(std::move(members));
  }
  }
  internal_error("unknown type kind");
}

namespace {
struct SizeSubstituter {
  const std::map<std::string, ArithExpr>& sizes;
  std::unordered_map<const Node*, Expr> params; // old param -> new param

  Expr rewrite(const Expr& e) {
    if (e->kind == NodeKind::Param) {
      auto it = params.find(e.get());
      if (it != params.end())
        return it->second;
      std::optional<Type> t;
      if (e->declared_type)
        t = substitute_sizes(*e->declared_type, sizes);
      Expr p = make_param(e->name, t);
      params.emplace(e.get(), p);
      return p;
    }
    Node n = *e;
    for (auto& s : n.sizes)
      s = s.substitute(sizes);
    for (auto& c : n.children)
      c = rewrite(c);
    return make_node(std::move(n));
  }
};
} // namespace

Expr substitute_sizes(const Expr& program, const std::map<std::string, ArithExpr>& sizes) {
  SizeSubstituter s{sizes, {}};
  return s.rewrite(program);
}

Expr instantiate(const Expr& e, std::map<const Node*, Expr>& renamed) {
  if (auto it = renamed.find(e.get()); it != renamed.end())
    return it->second;
  if (e->kind == NodeKind::Lambda)
    for (const auto& p : e->params())
      renamed[p.get()] = make_param(p->name, p->declared_type);
  std::vector<Expr> children;
  for (const auto& c : e->children)
    children.push_back(instantiate(c, renamed));
  return e->children.empty() ? e : with_children(e, children);
}

bool is_layout_only(const Expr& f) {
  switch (f->kind) {
  case NodeKind::Split:
  case NodeKind::Join:
  case NodeKind::Slide:
  case NodeKind::Pad:
  case NodeKind::Drop:
  case NodeKind::Transpose:
  case NodeKind::Zip:
  case NodeKind::At:
  case NodeKind::Get:
  case NodeKind::TileSlide:
    return true;
  case NodeKind::Map:
    return f->map_kind == MapKind::Map && is_layout_only(f->children[0]);
  case NodeKind::Lambda: {
    // The body must consist of layout calls over parameters.
    std::function<bool(const Expr&)> value_ok = [&](const Expr& e) {
      if (e->kind == NodeKind::Param)
        return true;
      if (e->kind != NodeKind::Call || !is_layout_only(e->callee()))
        return false;
      for (const auto& a : e->call_args())
        if (!value_ok(a))
          return false;
      return true;
    };
    return value_ok(f->body());
  }
  case NodeKind::Iterate:
    return is_layout_only(f->children[0]);
  case NodeKind::UserFun:
  case NodeKind::Reduce:
  case NodeKind::Scan:
  case NodeKind::Generate:
  case NodeKind::ToMem:
  case NodeKind::TimeTile:
  case NodeKind::StreamSteps:
    return false;
  case NodeKind::Param:
  case NodeKind::Literal:
  case NodeKind::Call:
    return false;
  }
  return false;
}

} // namespace tessera
