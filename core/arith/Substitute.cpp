// Substitution (re-simplifying through the smart constructors) and variable queries.
#include <algorithm>

#include "core/Error.h"
#include "core/arith/ArithNode.h"

namespace tessera {

ArithExpr ArithExpr::substitute(const std::map<std::string, ArithExpr>& replacement) const {
  return arith::substitute(*this, replacement, true);
}

namespace {
void collect_variables(const ArithExpr& e, std::vector<std::string>& out) {
  if (e.kind() == ArithKind::Var)
    out.push_back(e.name());
  for (const ArithExpr& op : e.operands())
    collect_variables(op, out);
}
} // namespace

std::vector<std::string> ArithExpr::variables() const {
  std::vector<std::string> names;
  collect_variables(*this, names);
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

namespace arith {

bool mentions(const ArithExpr& e, const std::string& name) {
  if (e.kind() == ArithKind::Var)
    return e.name() == name;
  for (const ArithExpr& op : e.operands())
    if (mentions(op, name))
      return true;
  return false;
}

std::optional<ArithExpr> find_var(const ArithExpr& e, const std::string& name) {
  if (e.kind() == ArithKind::Var)
    return e.name() == name ? std::optional(e) : std::nullopt;
  for (const ArithExpr& op : e.operands())
    if (auto v = find_var(op, name))
      return v;
  return std::nullopt;
}

ArithExpr substitute(const ArithExpr& e, const std::map<std::string, ArithExpr>& r,
                     bool rewrite_ranges) {
  if (e.kind() == ArithKind::Cst)
    return e;
  if (e.kind() == ArithKind::Var) {
    auto it = r.find(e.name());
    if (it != r.end())
      return it->second;
    if (!rewrite_ranges || (!e.lo() && !e.hi()))
      return e;
    auto sub = [&](const std::optional<ArithExpr>& b) -> std::optional<ArithExpr> {
      if (!b)
        return b;
      return substitute(*b, r, true);
    };
    auto lo = sub(e.lo()), hi = sub(e.hi());
    bool same = (!lo || lo->node() == e.lo()->node()) && (!hi || hi->node() == e.hi()->node());
    return same ? e : ArithExpr::var(e.name(), lo, hi);
  }
  const auto& ops = e.operands();
  std::vector<ArithExpr> n;
  bool changed = false;
  for (const ArithExpr& op : ops) {
    n.push_back(substitute(op, r, rewrite_ranges));
    changed = changed || n.back().node() != op.node();
  }
  if (!changed)
    return e;
  switch (e.kind()) {
  case ArithKind::Add: {
    ArithExpr s = n[0];
    for (std::size_t i = 1; i < n.size(); ++i)
      s = s + n[i];
    return s;
  }
  case ArithKind::Mul: {
    ArithExpr p = n[0];
    for (std::size_t i = 1; i < n.size(); ++i)
      p = p * n[i];
    return p;
  }
  case ArithKind::Div:
    return n[0] / n[1];
  case ArithKind::Mod:
    return n[0] % n[1];
  case ArithKind::Min:
    return min(n[0], n[1]);
  case ArithKind::Max:
    return max(n[0], n[1]);
  case ArithKind::Lt:
    return lt(n[0], n[1]);
  case ArithKind::Le:
    return le(n[0], n[1]);
  case ArithKind::Eq:
    return eq(n[0], n[1]);
  case ArithKind::And:
    return logical_and(n[0], n[1]);
  case ArithKind::Select:
    return select(n[0], n[1], n[2]);
  default:
    break;
  }
  internal_error("substitute: unknown ArithKind");
}

} // namespace arith
} // namespace tessera
