// The prover. To show e >= 0 it relaxes e into smaller expressions until numeric bounds decide.
// Writing e = K*a + R for an atom a (a variable, min, div, ...) whose coefficient K has a known
// sign, each step replaces a by a bound that can only make e smaller:
//   variable v:   K >= 0: v -> lo(v)      K <= 0: v -> hi(v)
//                 (i in [0, N-1]:  N - 1 - i >= N - 1 - (N - 1) = 0)
//   min(x, y):    K >= 0: both x and y    K <= 0: either x or y       (max: the opposite)
//   c ? x : y:    both x and y
//   x % b, b > 0: K >= 0: 0               K <= 0: b - 1
//   x / c, c > 0: c*e = K*(c*(x/c)) + c*R with x - c + 1 <= c*(x/c) <= x
//   other atoms:  their numeric bounds
// Every step holds pointwise, so the chain is sound even when ranges mention other variables.
// e < 0 is shown as -e - 1 >= 0. The prover never throws: any error (overflow) gives Unknown.
#include <algorithm>
#include <set>

#include "core/arith/ArithNode.h"

namespace tessera {

using namespace arith;

namespace {

// The prover is called by the simplifier and calls it back (through substitution). The depth
// bound and the per-call step budget keep that finite and cheap.
thread_local int prove_depth = 0;
constexpr int kMaxProveDepth = 3;

struct DepthGuard {
  DepthGuard() { ++prove_depth; }
  ~DepthGuard() { --prove_depth; }
};

struct Search {
  int budget;
};

// e = K*a + R: K collects the monomials containing the atom a (one occurrence removed).
struct Linear {
  Poly k, r;
};

Linear split_on(const Poly& p, const ArithExpr& a) {
  Linear l;
  for (const auto& [m, c] : p) {
    auto it = std::find_if(m.begin(), m.end(), [&](const ArithExpr& x) { return x.same_as(a); });
    if (it == m.end()) {
      add_term(l.r, m, c);
    } else {
      Monomial rest = m;
      rest.erase(rest.begin() + (it - m.begin()));
      add_term(l.k, rest, c);
    }
  }
  return l;
}

// +1 when K >= 0 everywhere, -1 when K <= 0 everywhere, 0 when unknown.
int sign_of(const Poly& k) {
  if (k.empty())
    return 0;
  Interval b = bounds_of(from_poly(k));
  if (b.lo && *b.lo >= 0)
    return 1;
  if (b.hi && *b.hi <= 0)
    return -1;
  return 0;
}

// K*b + R
ArithExpr with(const Linear& l, const ArithExpr& b) {
  Poly p = l.r;
  add_poly(p, multiply(l.k, to_poly(b)), 1);
  return from_poly(std::move(p));
}

std::vector<ArithExpr> atoms_of(const Poly& p) {
  std::vector<ArithExpr> atoms;
  for (const auto& [m, c] : p)
    for (const ArithExpr& a : m)
      if (std::none_of(atoms.begin(), atoms.end(),
                       [&](const ArithExpr& x) { return x.same_as(a); }))
        atoms.push_back(a);
  return atoms;
}

bool nested_in_atom(const std::vector<ArithExpr>& atoms, const std::string& name) {
  return std::any_of(atoms.begin(), atoms.end(), [&](const ArithExpr& a) {
    return a.kind() != ArithKind::Var && mentions(a, name);
  });
}

// Variables of e with a range; `inner` ones are not mentioned by the ranges of the others, so
// i in [0, N-1] is relaxed before N (relaxing N first would lose the link between them).
struct RangedVariables {
  std::vector<ArithExpr> all;
  std::set<std::string> referenced;
  bool inner(const ArithExpr& v) const { return !referenced.count(v.name()); }
};

RangedVariables ranged_variables(const ArithExpr& e) {
  RangedVariables r;
  for (const std::string& name : e.variables()) {
    ArithExpr v = *find_var(e, name);
    if (!v.lo() && !v.hi())
      continue;
    r.all.push_back(v);
    for (const auto& bound : {v.lo(), v.hi()})
      if (bound)
        for (const std::string& other : bound->variables())
          if (other != name)
            r.referenced.insert(other);
  }
  std::stable_partition(r.all.begin(), r.all.end(), [&](const ArithExpr& v) { return r.inner(v); });
  return r;
}

bool nonneg(const ArithExpr& e, Search& s);

// Relaxes the variable v (top-level occurrences), if its coefficient sign and bound are known.
std::optional<bool> relax_variable(const Poly& p, const ArithExpr& v, Search& s) {
  Linear l = split_on(p, v);
  int sign = sign_of(l.k);
  auto bound = sign > 0 ? v.lo() : (sign < 0 ? v.hi() : std::nullopt);
  if (!bound)
    return std::nullopt;
  return nonneg(with(l, *bound), s);
}

// Relaxes a non-variable atom a, if its coefficient sign is known.
std::optional<bool> relax_atom(const Poly& p, const ArithExpr& a, Search& s) {
  Linear l = split_on(p, a);
  int sign = sign_of(l.k);
  if (sign == 0)
    return std::nullopt;
  const auto& ops = a.operands();
  auto both = [&](const ArithExpr& x, const ArithExpr& y) {
    return nonneg(with(l, x), s) && nonneg(with(l, y), s);
  };
  auto either = [&](const ArithExpr& x, const ArithExpr& y) {
    return nonneg(with(l, x), s) || nonneg(with(l, y), s);
  };
  switch (a.kind()) {
  case ArithKind::Min:
    return sign > 0 ? both(ops[0], ops[1]) : either(ops[0], ops[1]);
  case ArithKind::Max:
    return sign > 0 ? either(ops[0], ops[1]) : both(ops[0], ops[1]);
  case ArithKind::Select:
    return both(ops[1], ops[2]);
  case ArithKind::Mod:
    if (nonneg(ops[1] - 1, s))
      return nonneg(with(l, sign > 0 ? ArithExpr(0) : ops[1] - 1), s);
    break;
  case ArithKind::Div:
    if (auto c = ops[1].as_constant(); c && *c > 0) {
      Poly scaled = multiply(l.r, to_poly(*c));
      ArithExpr bound = sign > 0 ? ops[0] - (*c - 1) : ops[0];
      add_poly(scaled, multiply(l.k, to_poly(bound)), 1);
      return nonneg(from_poly(std::move(scaled)), s);
    }
    break;
  default:
    break;
  }
  Interval b = bounds_of(a);
  auto bound = sign > 0 ? b.lo : b.hi;
  if (!bound)
    return std::nullopt;
  return nonneg(with(l, *bound), s);
}

// Is e >= 0 provable? One relaxation step, then recursion.
bool nonneg(const ArithExpr& e, Search& s) {
  if (auto c = e.as_constant())
    return *c >= 0;
  if (--s.budget < 0)
    return false;
  Interval b = bounds_of(e);
  if (b.lo && *b.lo >= 0)
    return true;
  if (b.hi && *b.hi < 0)
    return false;
  Poly p = to_poly(e);
  std::vector<ArithExpr> atoms = atoms_of(p);
  RangedVariables vars = ranged_variables(e);
  // Inner variables that occur only at top level first: relaxing them loses nothing else.
  for (const ArithExpr& v : vars.all)
    if (vars.inner(v) && !nested_in_atom(atoms, v.name()))
      if (auto r = relax_variable(p, v, s))
        return *r;
  for (const ArithExpr& a : atoms)
    if (a.kind() != ArithKind::Var)
      if (auto r = relax_atom(p, a, s))
        return *r;
  for (const ArithExpr& v : vars.all)
    if (auto r = relax_variable(p, v, s))
      return *r;
  return false;
}

// Runs a proof step that may throw (overflow in the arithmetic it builds) as Unknown.
template <class F> Truth guarded(F f) {
  try {
    return f();
  } catch (const std::exception&) {
    return Truth::Unknown;
  }
}

} // namespace

Truth prove_nonneg(const ArithExpr& e) {
  if (auto c = e.as_constant())
    return *c >= 0 ? Truth::Yes : Truth::No;
  if (prove_depth >= kMaxProveDepth)
    return Truth::Unknown;
  DepthGuard guard;
  int budget = 32 >> (2 * (prove_depth - 1)); // 32, 8, 2 steps at depth 1, 2, 3
  return guarded([&] {
    Search yes{budget};
    if (nonneg(e, yes))
      return Truth::Yes;
    Search no{budget};
    if (nonneg(-e - 1, no))
      return Truth::No;
    return Truth::Unknown;
  });
}

// a < b  <=>  b - a - 1 >= 0
Truth prove_lt(const ArithExpr& a, const ArithExpr& b) {
  return guarded([&] { return prove_nonneg(b - a - 1); });
}

// a <= b  <=>  b - a >= 0
Truth prove_le(const ArithExpr& a, const ArithExpr& b) {
  return guarded([&] { return prove_nonneg(b - a); });
}

Truth prove_eq(const ArithExpr& a, const ArithExpr& b) {
  return guarded([&] {
    ArithExpr d = a - b;
    if (auto c = d.as_constant())
      return *c == 0 ? Truth::Yes : Truth::No;
    Truth ge = prove_nonneg(d);
    if (ge == Truth::No)
      return Truth::No;
    Truth le = prove_nonneg(-d);
    if (le == Truth::No)
      return Truth::No;
    if (ge == Truth::Yes && le == Truth::Yes)
      return Truth::Yes;
    return Truth::Unknown;
  });
}

// b divides a  <=>  a % b == 0 (a % b simplifies to a constant when the prover can decide).
Truth prove_divisible(const ArithExpr& a, const ArithExpr& b) {
  return guarded([&] {
    if (a.as_constant() == 0)
      return Truth::Yes;
    if (b.as_constant() == 0)
      return Truth::Unknown;
    ArithExpr r = a % b;
    if (auto c = r.as_constant())
      return *c == 0 ? Truth::Yes : Truth::No;
    return prove_eq(r, 0);
  });
}

} // namespace tessera
