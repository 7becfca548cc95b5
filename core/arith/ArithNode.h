// Internal to core/arith: the node behind an ArithExpr, the polynomial view used by the
// simplifier (a sum of coefficient * monomial), and helpers shared by the simplifier files.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "core/arith/ArithExpr.h"

namespace tessera {

struct ArithNode {
  ArithKind kind = ArithKind::Cst;
  int64_t value = 0;               // Cst
  std::string name;                // Var
  std::optional<ArithExpr> lo, hi; // Var
  std::vector<ArithExpr> ops;      // everything else
  std::string lead;                // smallest variable name inside ("" for constants)
  std::size_t hash = 0;
};

// Builds nodes without simplification (the smart constructors decide what to build).
struct ArithBuilder {
  static ArithExpr make(ArithNode node);
  static ArithExpr raw(ArithKind kind, std::vector<ArithExpr> ops);
};

namespace arith {

// Checked int64 arithmetic: overflow is a tessera::Error, never undefined behaviour.
int64_t checked_add(int64_t a, int64_t b);
int64_t checked_mul(int64_t a, int64_t b);
int64_t checked_neg(int64_t a);
// Floor division and modulo: a == floor_div(a, b) * b + floor_mod(a, b), floor_mod has b's sign.
int64_t floor_div(int64_t a, int64_t b);
int64_t floor_mod(int64_t a, int64_t b);
int64_t gcd(int64_t a, int64_t b);

// Total order of canonical forms: -1, 0 or 1.
int compare(const ArithExpr& a, const ArithExpr& b);

// Polynomial view: sum over monomials (sorted atoms, empty = constant) of int64 coefficients.
// Atoms are everything that is not Cst, Add or Mul.
using Monomial = std::vector<ArithExpr>;
struct MonomialLess {
  bool operator()(const Monomial& a, const Monomial& b) const;
};
using Poly = std::map<Monomial, int64_t, MonomialLess>;

Poly to_poly(const ArithExpr& e);
// Canonical expression of a polynomial; also recombines (x/n)*n + x%n -> x.
ArithExpr from_poly(Poly p);
void add_term(Poly& p, const Monomial& m, int64_t c);
void add_poly(Poly& p, const Poly& q, int64_t scale);
Poly multiply(const Poly& a, const Poly& b);
// m without the atoms of sub (as multisets), or nullopt when sub is not contained in m.
std::optional<Monomial> remove_atoms(const Monomial& m, const Monomial& sub);

// Substitution; rewrite_ranges also substitutes inside the ranges of the remaining variables
// (right for facts such as N = 1024, wrong for the prover's "v at its lower bound").
ArithExpr substitute(const ArithExpr& e, const std::map<std::string, ArithExpr>& replacement,
                     bool rewrite_ranges);
bool mentions(const ArithExpr& e, const std::string& name);
// The Var node named `name` inside e (to read its range).
std::optional<ArithExpr> find_var(const ArithExpr& e, const std::string& name);

} // namespace arith
} // namespace tessera
