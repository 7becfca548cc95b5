// Structural equality and hashing of expressions (declared in core/Expr.h): two trees are equal
// when they have the same shape, fields and values, with parameters matched by where they are
// bound rather than by identity.
#include <cstring>
#include <functional>
#include <map>

#include "core/Expr.h"

namespace tessera {

namespace {

// Walks two trees in lock step; parameters are equal when bound at the same position.
struct StructuralComparer {
  std::map<const Node*, const Node*> bound;

  bool equal(const Expr& a, const Expr& b) {
    if (a.same_as(b))
      return true;
    const Node& x = *a;
    const Node& y = *b;
    if (x.kind != y.kind || x.children.size() != y.children.size() ||
        x.sizes.size() != y.sizes.size())
      return false;
    switch (x.kind) {
    case NodeKind::Param: {
      auto it = bound.find(&x);
      if (it != bound.end())
        return it->second == &y;
      return false; // distinct free parameters
    }
    case NodeKind::Literal:
      return x.literal == y.literal;
    case NodeKind::Lambda:
      for (std::size_t i = 0; i + 1 < x.children.size(); ++i) {
        if (x.children[i]->space != y.children[i]->space) // an input's placement
          return false;
        bound[x.children[i].get()] = y.children[i].get();
      }
      break;
    case NodeKind::UserFun:
      if (x.user_fun != y.user_fun && x.user_fun->name != y.user_fun->name)
        return false;
      break;
    case NodeKind::Map:
      if (x.map_kind != y.map_kind || x.dim != y.dim)
        return false;
      break;
    case NodeKind::Reduce:
      if (x.reduce_kind != y.reduce_kind)
        return false;
      break;
    case NodeKind::Scan:
      if (x.backward != y.backward)
        return false;
      break;
    case NodeKind::Pad:
    case NodeKind::StreamSteps:
      if (!(x.boundary == y.boundary))
        return false;
      break;
    case NodeKind::ToMem:
      if (x.space != y.space)
        return false;
      break;
    default:
      break;
    }
    if (x.sizes != y.sizes)
      return false;
    for (std::size_t i = 0; i < x.children.size(); ++i)
      if (!equal(x.children[i], y.children[i]))
        return false;
    return true;
  }
};

void hash_combine(std::size_t& seed, std::size_t v) {
  seed ^= v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
}

// Parameters hash by their binding order, so renaming does not change the hash.
std::size_t hash_node(const Expr& e, std::map<const Node*, std::size_t>& params) {
  const Node& n = *e;
  std::size_t h = static_cast<std::size_t>(n.kind);
  switch (n.kind) {
  case NodeKind::Param: {
    auto it = params.find(&n);
    hash_combine(h, it == params.end() ? 0xf00d : it->second);
    return h;
  }
  case NodeKind::Literal:
    hash_combine(h, std::hash<double>()(n.literal.as_double()));
    break;
  case NodeKind::Lambda:
    for (std::size_t i = 0; i + 1 < n.children.size(); ++i) {
      params.emplace(n.children[i].get(), params.size() + 1);
      hash_combine(h, static_cast<std::size_t>(n.children[i]->space));
    }
    break;
  case NodeKind::UserFun:
    hash_combine(h, std::hash<std::string>()(n.user_fun->name));
    break;
  case NodeKind::Map:
    hash_combine(h, static_cast<std::size_t>(n.map_kind) * 8 + n.dim);
    break;
  case NodeKind::Reduce:
    hash_combine(h, static_cast<std::size_t>(n.reduce_kind));
    break;
  case NodeKind::Scan:
    hash_combine(h, n.backward ? 2 : 1);
    break;
  case NodeKind::Pad:
  case NodeKind::StreamSteps:
    hash_combine(h, static_cast<std::size_t>(n.boundary.kind));
    break;
  case NodeKind::ToMem:
    hash_combine(h, static_cast<std::size_t>(n.space));
    break;
  default:
    break;
  }
  for (const auto& s : n.sizes)
    hash_combine(h, s.hash());
  for (const auto& c : n.children)
    hash_combine(h, hash_node(c, params));
  return h;
}

} // namespace

bool structurally_equal(const Expr& a, const Expr& b) {
  StructuralComparer comparer;
  return comparer.equal(a, b);
}

std::size_t structural_hash(const Expr& e) {
  std::map<const Node*, std::size_t> params;
  return hash_node(e, params);
}

} // namespace tessera
