// The prover. prove_nonneg(e) first tries numeric bounds, then relaxes e symbolically: while e
// is linear in a variable v with a range and a coefficient c of known sign,
//   e = c*v + rest >= c*lo(v) + rest   (c >= 0)      e >= c*hi(v) + rest   (c <= 0)
// so substituting that bound gives a smaller expression that is still a lower bound of e
// (symmetrically for upper bounds). For i in [0, N-1]: N - 1 - i >= N - 1 - (N - 1) = 0.
// Each step holds pointwise, so the chain is sound even when ranges mention other variables.
// The prover never throws: any error (overflow, ...) gives Unknown.
#include <algorithm>
#include <set>

#include "core/arith/ArithNode.h"

namespace tessera {

using namespace arith;

namespace {

// The prover is called by the simplifier and calls it back (through substitution); the depth
// bound keeps that finite and cheap.
thread_local int prove_depth = 0;
constexpr int kMaxProveDepth = 3;

struct DepthGuard {
  DepthGuard() { ++prove_depth; }
  ~DepthGuard() { --prove_depth; }
};

// Coefficient of the variable `name` when p is linear in it (degree 1, never inside an atom).
std::optional<ArithExpr> linear_coefficient(const Poly& p, const std::string& name) {
  Poly coef;
  for (const auto& [m, c] : p) {
    int degree = 0;
    Monomial rest;
    for (const ArithExpr& atom : m) {
      if (atom.kind() == ArithKind::Var && atom.name() == name) {
        ++degree;
      } else {
        if (mentions(atom, name))
          return std::nullopt;
        rest.push_back(atom);
      }
    }
    if (degree > 1)
      return std::nullopt;
    if (degree == 1)
      add_term(coef, rest, c);
  }
  return from_poly(std::move(coef));
}

// Variables of e with a range, those not mentioned by the ranges of the others first (so that
// i in [0, N-1] is replaced before N).
std::vector<ArithExpr> ranged_variables(const ArithExpr& e) {
  std::vector<ArithExpr> vars;
  std::set<std::string> referenced;
  for (const std::string& name : e.variables()) {
    ArithExpr v = *find_var(e, name);
    if (!v.lo() && !v.hi())
      continue;
    vars.push_back(v);
    for (const auto& bound : {v.lo(), v.hi()})
      if (bound)
        for (const std::string& r : bound->variables())
          if (r != name)
            referenced.insert(r);
  }
  std::stable_partition(vars.begin(), vars.end(),
                        [&](const ArithExpr& v) { return !referenced.count(v.name()); });
  return vars;
}

// A symbolic lower (upper = false) or upper (upper = true) bound of e.
ArithExpr relax(ArithExpr e, bool upper) {
  for (int step = 0; step < 32 && !e.is_constant(); ++step) {
    Poly p = to_poly(e);
    bool changed = false;
    for (const ArithExpr& v : ranged_variables(e)) {
      auto coef = linear_coefficient(p, v.name());
      if (!coef)
        continue;
      Interval c = bounds_of(*coef);
      bool nonneg = c.lo && *c.lo >= 0, nonpos = c.hi && *c.hi <= 0;
      if (!nonneg && !nonpos)
        continue;
      bool use_hi = nonneg ? upper : !upper;
      auto bound = use_hi ? v.hi() : v.lo();
      if (!bound)
        continue;
      e = substitute(e, {{v.name(), *bound}}, false);
      changed = true;
      break;
    }
    if (!changed)
      break;
  }
  return e;
}

Truth nonneg(const ArithExpr& e) {
  Interval b = bounds_of(e);
  if (b.lo && *b.lo >= 0)
    return Truth::Yes;
  if (b.hi && *b.hi < 0)
    return Truth::No;
  ArithExpr lower = relax(e, false);
  Interval lb = bounds_of(lower);
  if (lb.lo && *lb.lo >= 0)
    return Truth::Yes;
  ArithExpr upper = relax(e, true);
  Interval ub = bounds_of(upper);
  if (ub.hi && *ub.hi < 0)
    return Truth::No;
  return Truth::Unknown;
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
  return guarded([&] { return nonneg(e); });
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
