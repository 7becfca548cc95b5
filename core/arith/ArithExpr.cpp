// ArithExpr basics: construction, accessors, structural order and hash, evaluation.
// The simplifying operators live in Simplify_*.cpp, substitution in Substitute.cpp.
#include <algorithm>
#include <cctype>
#include <functional>

#include "core/Error.h"
#include "core/arith/ArithNode.h"

namespace tessera {

namespace {

// Variable names compare case-insensitively first ("i" < "N" < "x"), then exactly.
bool name_less(const std::string& a, const std::string& b) {
  auto lower = [](unsigned char c) { return static_cast<char>(std::tolower(c)); };
  std::size_t n = std::min(a.size(), b.size());
  for (std::size_t k = 0; k < n; ++k)
    if (lower(a[k]) != lower(b[k]))
      return lower(a[k]) < lower(b[k]);
  if (a.size() != b.size())
    return a.size() < b.size();
  return a < b;
}

std::size_t mix(std::size_t seed, std::size_t value) {
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

// Rank of a kind in the canonical order: plain variables before compound atoms.
int rank(ArithKind k) {
  switch (k) {
  case ArithKind::Cst:
    return 0;
  case ArithKind::Var:
    return 1;
  case ArithKind::Mul:
    return 2;
  case ArithKind::Add:
    return 3;
  case ArithKind::Div:
    return 4;
  case ArithKind::Mod:
    return 5;
  case ArithKind::Min:
    return 6;
  case ArithKind::Max:
    return 7;
  case ArithKind::Select:
    return 8;
  case ArithKind::Lt:
    return 9;
  case ArithKind::Le:
    return 10;
  case ArithKind::Eq:
    return 11;
  case ArithKind::And:
    return 12;
  }
  return 13;
}

const ArithNode& need(const ArithExpr& e, ArithKind kind, const char* what) {
  if (e.kind() != kind)
    internal_error(cat("ArithExpr::", what, " called on ", e.to_string()));
  return *e.node();
}

} // namespace

ArithExpr ArithBuilder::make(ArithNode n) {
  std::size_t h = std::hash<int>()(static_cast<int>(n.kind));
  if (n.kind == ArithKind::Cst) {
    h = mix(h, std::hash<int64_t>()(n.value));
  } else if (n.kind == ArithKind::Var) {
    h = mix(h, std::hash<std::string>()(n.name)); // variables are identified by name
    n.lead = n.name;
  } else {
    for (const ArithExpr& op : n.ops) {
      h = mix(h, op.hash());
      const std::string& l = op.node()->lead;
      if (!l.empty() && (n.lead.empty() || name_less(l, n.lead)))
        n.lead = l;
    }
  }
  n.hash = h;
  return ArithExpr(std::make_shared<const ArithNode>(std::move(n)));
}

ArithExpr ArithBuilder::raw(ArithKind kind, std::vector<ArithExpr> ops) {
  ArithNode n;
  n.kind = kind;
  n.ops = std::move(ops);
  return make(std::move(n));
}

ArithExpr::ArithExpr() : ArithExpr(int64_t{0}) {}

ArithExpr::ArithExpr(int64_t value) {
  ArithNode n;
  n.kind = ArithKind::Cst;
  n.value = value;
  *this = ArithBuilder::make(std::move(n));
}

ArithExpr ArithExpr::var(std::string name, std::optional<ArithExpr> lo,
                         std::optional<ArithExpr> hi) {
  if (name.empty())
    user_error("ArithExpr::var: a variable needs a non-empty name");
  if (lo && hi && lo->is_constant() && hi->is_constant() && lo->value() > hi->value())
    user_error(cat("ArithExpr::var: the range [", lo->value(), ", ", hi->value(), "] of '", name,
                   "' is empty"));
  ArithNode n;
  n.kind = ArithKind::Var;
  n.name = std::move(name);
  n.lo = std::move(lo);
  n.hi = std::move(hi);
  return ArithBuilder::make(std::move(n));
}

ArithExpr ArithExpr::size_var(std::string name) {
  return var(std::move(name), ArithExpr(1));
}

ArithKind ArithExpr::kind() const {
  return node_->kind;
}

std::optional<int64_t> ArithExpr::as_constant() const {
  if (is_constant())
    return node_->value;
  return std::nullopt;
}

int64_t ArithExpr::value() const {
  return need(*this, ArithKind::Cst, "value").value;
}
const std::string& ArithExpr::name() const {
  return need(*this, ArithKind::Var, "name").name;
}
std::optional<ArithExpr> ArithExpr::lo() const {
  return need(*this, ArithKind::Var, "lo").lo;
}
std::optional<ArithExpr> ArithExpr::hi() const {
  return need(*this, ArithKind::Var, "hi").hi;
}
const std::vector<ArithExpr>& ArithExpr::operands() const {
  return node_->ops;
}

std::size_t ArithExpr::hash() const {
  return node_->hash;
}

bool ArithExpr::same_as(const ArithExpr& other) const {
  if (node_ == other.node_)
    return true;
  if (hash() != other.hash())
    return false;
  return arith::compare(*this, other) == 0;
}

bool ArithExpr::less_than(const ArithExpr& other) const {
  return arith::compare(*this, other) < 0;
}

namespace {

// Direct evaluation with floor semantics; `root` names the whole expression in errors.
int64_t eval(const ArithExpr& e, const std::map<std::string, int64_t>& env, const ArithExpr& root) {
  using namespace arith;
  const auto& ops = e.operands();
  auto ev = [&](std::size_t i) { return eval(ops[i], env, root); };
  switch (e.kind()) {
  case ArithKind::Cst:
    return e.value();
  case ArithKind::Var: {
    auto it = env.find(e.name());
    if (it == env.end())
      user_error(cat("evaluate: variable '", e.name(), "' has no value (evaluating ",
                     root.to_string(), ")"));
    return it->second;
  }
  case ArithKind::Add: {
    int64_t s = 0;
    for (std::size_t i = 0; i < ops.size(); ++i)
      s = checked_add(s, ev(i));
    return s;
  }
  case ArithKind::Mul: {
    int64_t p = 1;
    for (std::size_t i = 0; i < ops.size(); ++i)
      p = checked_mul(p, ev(i));
    return p;
  }
  case ArithKind::Div:
  case ArithKind::Mod: {
    int64_t a = ev(0), b = ev(1);
    if (b == 0)
      user_error(cat("evaluate: ", e.kind() == ArithKind::Div ? "division" : "modulo",
                     " by zero in ", root.to_string()));
    return e.kind() == ArithKind::Div ? floor_div(a, b) : floor_mod(a, b);
  }
  case ArithKind::Min:
    return std::min(ev(0), ev(1));
  case ArithKind::Max:
    return std::max(ev(0), ev(1));
  case ArithKind::Lt:
    return ev(0) < ev(1) ? 1 : 0;
  case ArithKind::Le:
    return ev(0) <= ev(1) ? 1 : 0;
  case ArithKind::Eq:
    return ev(0) == ev(1) ? 1 : 0;
  case ArithKind::And:
    return (ev(0) != 0 && ev(1) != 0) ? 1 : 0;
  case ArithKind::Select:
    return ev(0) != 0 ? ev(1) : ev(2);
  }
  internal_error("evaluate: unknown ArithKind");
}

} // namespace

int64_t ArithExpr::evaluate(const std::map<std::string, int64_t>& env) const {
  return eval(*this, env, *this);
}

namespace arith {

int compare(const ArithExpr& a, const ArithExpr& b) {
  if (a.node() == b.node())
    return 0;
  const ArithNode& x = *a.node();
  const ArithNode& y = *b.node();
  if (x.lead != y.lead)
    return name_less(x.lead, y.lead) ? -1 : 1;
  if (x.kind != y.kind)
    return rank(x.kind) < rank(y.kind) ? -1 : 1;
  if (x.kind == ArithKind::Cst)
    return x.value == y.value ? 0 : (x.value < y.value ? -1 : 1);
  if (x.kind == ArithKind::Var)
    return x.name == y.name ? 0 : (name_less(x.name, y.name) ? -1 : 1);
  std::size_t n = std::min(x.ops.size(), y.ops.size());
  for (std::size_t i = 0; i < n; ++i)
    if (int c = compare(x.ops[i], y.ops[i]))
      return c;
  if (x.ops.size() != y.ops.size())
    return x.ops.size() < y.ops.size() ? -1 : 1;
  return 0;
}

} // namespace arith
} // namespace tessera
