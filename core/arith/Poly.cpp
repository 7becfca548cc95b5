// Polynomial normal form. A canonical sum is Add(term..., constant) with terms ordered by
// monomial; a canonical term is an atom or Mul(coefficient, atom...) with sorted atoms.
// Products are fully distributed, so every Add/Mul node is a polynomial over atoms.
#include "core/Error.h"
#include "core/arith/ArithNode.h"

namespace tessera::arith {

bool MonomialLess::operator()(const Monomial& a, const Monomial& b) const {
  std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i)
    if (int c = compare(a[i], b[i]))
      return c < 0;
  return a.size() < b.size();
}

void add_term(Poly& p, const Monomial& m, int64_t c) {
  if (c == 0)
    return;
  auto [it, inserted] = p.emplace(m, c);
  if (inserted)
    return;
  it->second = checked_add(it->second, c);
  if (it->second == 0)
    p.erase(it);
}

void add_poly(Poly& p, const Poly& q, int64_t scale) {
  for (const auto& [m, c] : q)
    add_term(p, m, checked_mul(c, scale));
}

namespace {
Monomial merge(const Monomial& a, const Monomial& b) {
  Monomial m;
  m.reserve(a.size() + b.size());
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && compare(a[i], b[j]) <= 0))
      m.push_back(a[i++]);
    else
      m.push_back(b[j++]);
  }
  return m;
}
} // namespace

Poly multiply(const Poly& a, const Poly& b) {
  Poly p;
  for (const auto& [ma, ca] : a)
    for (const auto& [mb, cb] : b)
      add_term(p, merge(ma, mb), checked_mul(ca, cb));
  return p;
}

std::optional<Monomial> remove_atoms(const Monomial& m, const Monomial& sub) {
  Monomial rest;
  std::size_t j = 0;
  for (const ArithExpr& atom : m) {
    if (j < sub.size() && compare(atom, sub[j]) == 0)
      ++j;
    else
      rest.push_back(atom);
  }
  if (j != sub.size())
    return std::nullopt;
  return rest;
}

Poly to_poly(const ArithExpr& e) {
  Poly p;
  switch (e.kind()) {
  case ArithKind::Cst:
    add_term(p, {}, e.value());
    break;
  case ArithKind::Add:
    for (const ArithExpr& op : e.operands())
      add_poly(p, to_poly(op), 1);
    break;
  case ArithKind::Mul: {
    p = to_poly(e.operands()[0]);
    for (std::size_t i = 1; i < e.operands().size(); ++i)
      p = multiply(p, to_poly(e.operands()[i]));
    break;
  }
  default:
    add_term(p, {e}, 1);
    break;
  }
  return p;
}

namespace {

Poly single(const Monomial& m, int64_t c) {
  Poly p;
  add_term(p, m, c);
  return p;
}

Monomial without(const Monomial& m, std::size_t j) {
  Monomial r = m;
  r.erase(r.begin() + static_cast<std::ptrdiff_t>(j));
  return r;
}

// Does p contain every term of q with exactly q's coefficient?
bool contains(const Poly& p, const Poly& q) {
  if (q.empty())
    return false;
  for (const auto& [m, c] : q) {
    auto it = p.find(m);
    if (it == p.end() || it->second != c)
      return false;
  }
  return true;
}

// The Div atom x / n already present in p, if any.
std::optional<ArithExpr> find_div_atom(const Poly& p, const ArithExpr& x, const ArithExpr& n) {
  for (const auto& [m, c] : p)
    for (const ArithExpr& atom : m)
      if (atom.kind() == ArithKind::Div && atom.operands()[0].same_as(x) &&
          atom.operands()[1].same_as(n))
        return atom;
  return std::nullopt;
}

// One step of  k*(x%n)*R + k*n*(x/n)*R -> k*x*R  (forward) or
//              k*x*R - k*n*(x/n)*R     -> k*(x%n)*R (reverse); both from x == (x/n)*n + x%n.
bool recombine_div_mod(Poly& p) {
  for (const auto& [m, k] : p) {
    for (std::size_t j = 0; j < m.size(); ++j) {
      const ArithExpr& atom = m[j];
      if (atom.kind() == ArithKind::Mod) {
        const ArithExpr& x = atom.operands()[0];
        const ArithExpr& n = atom.operands()[1];
        auto d = find_div_atom(p, x, n);
        if (!d)
          continue;
        Poly rest = single(without(m, j), k);
        Poly div_term = multiply(multiply(to_poly(*d), to_poly(n)), rest);
        if (!contains(p, div_term))
          continue;
        Poly q = p;
        add_poly(q, div_term, -1);
        add_term(q, m, -k);
        add_poly(q, multiply(to_poly(x), rest), 1);
        p = std::move(q);
        return true;
      }
      if (atom.kind() == ArithKind::Div) {
        const ArithExpr& x = atom.operands()[0];
        const ArithExpr& n = atom.operands()[1];
        Poly pn = to_poly(n);
        if (pn.size() != 1)
          continue;
        const auto& [mn, cn] = *pn.begin();
        auto r = remove_atoms(without(m, j), mn);
        if (!r || cn == 0 || (cn != 1 && cn != -1 && k % cn != 0))
          continue;
        int64_t kp = checked_neg(cn == -1 ? checked_neg(k) : k / cn);
        Poly rest = single(*r, kp);
        Poly x_term = multiply(to_poly(x), rest);
        if (!contains(p, x_term))
          continue;
        Poly q = p;
        add_poly(q, x_term, -1);
        add_term(q, m, -k);
        add_poly(q, multiply(to_poly(x % n), rest), 1);
        p = std::move(q);
        return true;
      }
    }
  }
  return false;
}

ArithExpr make_term(const Monomial& m, int64_t c) {
  if (m.empty())
    return ArithExpr(c);
  if (c == 1 && m.size() == 1)
    return m[0];
  std::vector<ArithExpr> ops;
  if (c != 1)
    ops.emplace_back(c);
  ops.insert(ops.end(), m.begin(), m.end());
  return ArithBuilder::raw(ArithKind::Mul, std::move(ops));
}

} // namespace

ArithExpr from_poly(Poly p) {
  for (int step = 0; step < 64 && recombine_div_mod(p); ++step) {
  }
  std::vector<ArithExpr> terms;
  std::optional<ArithExpr> constant;
  for (const auto& [m, c] : p) {
    if (m.empty())
      constant = ArithExpr(c);
    else
      terms.push_back(make_term(m, c));
  }
  if (constant)
    terms.push_back(*constant); // the constant goes last
  if (terms.empty())
    return ArithExpr(0);
  if (terms.size() == 1)
    return terms[0];
  return ArithBuilder::raw(ArithKind::Add, std::move(terms));
}

} // namespace tessera::arith
