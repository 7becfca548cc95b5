// Random scalar user functions for the differential fuzzer's programs (tests/fuzz/FuzzProgram.cpp):
// arithmetic, select, min/max, math functions and casts over bounded terms, with generated,
// shared or tricky names (Recipe::names). Included by FuzzProgram.cpp only.
#pragma once

#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/Error.h"
#include "dsl/Dsl.h"
#include "tests/fuzz/FuzzProgram.h"
#include "tests/fuzz/Reproducers.h"

namespace tessera::fuzz {

// A scalar with a bound on its magnitude. Bounds keep float values small (so that contracted
// multiply-adds on the device stay far inside the tolerance) and integers far from overflow.
struct Term {
  Sym sym;
  double bound;
};

// Random scalar functions from one seed.
class FnFactory {
public:
  FnFactory(const Recipe& r) : rng_(r.fn_seed), depth_(r.fn_depth), names_(r.names) {}

  int pick(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  std::string name(const std::string& base) {
    if (names_ == 1)
      return "fn";
    if (names_ >= 2 && coin(0.5)) {
      // Distinct functions keep distinct names (sharing one is names_ == 1).
      std::string n = pick_name();
      if (fun_names_.insert(n).second)
        return n;
    }
    return cat(base, counter_++);
  }
  std::string input_name(std::size_t k) {
    if (names_ >= 2 && coin(0.6))
      return pick_name();
    return cat("x", k);
  }

  // A user function of `leaves.size()` parameters (of the given kinds) computing `kind`.
  // Parameters of another kind are cast to `kind` first. Returns the function and its bound.
  std::pair<Fun, double> function(const std::string& base, ScalarKind kind,
                                  const std::vector<ScalarKind>& param_kinds,
                                  const std::vector<double>& bounds) {
    std::vector<Term> leaves;
    for (std::size_t i = 0; i < param_kinds.size(); ++i) {
      Sym p(ScalarExpr::param(static_cast<int>(i)));
      if (param_kinds[i] != kind)
        p = cast(kind, p);
      leaves.push_back({p, bounds[i]});
    }
    next_leaf_ = 0;
    Term t = expr(leaves, kind, depth_);
    // Every parameter is used at least once.
    for (; next_leaf_ < leaves.size(); ++next_leaf_)
      t = combine_add(t, leaves[next_leaf_], kind);
    // Integers stay far from overflow in whatever uses the result.
    if (kind == ScalarKind::I32 && t.bound > (1 << 20))
      t = {t.sym % 100003, 100003};
    // A part made of literals alone is f64 (only a literal next to a typed operand adopts its
    // type): the result is cast back to the function's kind when it differs.
    std::vector<ScalarKind> used(param_kinds.size(), kind);
    if (t.sym.expr().infer(used, "fuzz") != kind)
      t.sym = cast(kind, t.sym);
    Fun f = detail::make_user_fun_value(name(base), static_cast<int>(param_kinds.size()), {},
                                        t.sym.expr());
    return {f, t.bound};
  }

  // Binary reduction operators (acc, x) -> acc.
  Fun add() {
    return user_fun(name("add"), [](auto a, auto b) { return a + b; });
  }
  Fun max() {
    return user_fun(name("max"), [](auto a, auto b) { return select(a > b, a, b); });
  }
  // An order-dependent fold, so that a wrong element order shows.
  Fun fold(ScalarKind kind) {
    if (kind == ScalarKind::I32)
      return user_fun(name("fold"), [](auto acc, auto x) { return (acc * 3 + x) % 10007; });
    return user_fun(name("fold"), [](auto acc, auto x) { return acc * 0.5 + x; });
  }
  // A contractive step for Iterate.
  Fun step(ScalarKind kind) {
    int k = pick(0, 2);
    if (kind == ScalarKind::I32) {
      if (k == 0)
        return user_fun(name("step"), [](auto a) { return a / 2 + 1; });
      if (k == 1)
        return user_fun(name("step"), [](auto a) { return (a * 3) % 101; });
      return user_fun(name("step"), [](auto a) { return select(a > 0, a - 1, a + 1); });
    }
    if (k == 0)
      return user_fun(name("step"), [](auto a) { return a * 0.5 + 0.25; });
    if (k == 1)
      return user_fun(name("step"), [](auto a) { return sin(a); });
    return user_fun(name("step"), [](auto a) { return fmax(a * 0.5, -0.5); });
  }
  Fun scale(double factor) {
    return user_fun(name("scale"), [factor](auto a) { return a * factor; });
  }

private:
  bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

  Term leaf(const std::vector<Term>& leaves, ScalarKind kind) {
    if (next_leaf_ < leaves.size())
      return leaves[next_leaf_++];
    if (coin(0.2)) {
      if (kind == ScalarKind::I32) {
        int c = pick(-5, 5);
        return {Sym(c), static_cast<double>(std::abs(c))};
      }
      double c = pick(-8, 8) * 0.125;
      return {Sym(c), std::fabs(c)};
    }
    return leaves[static_cast<std::size_t>(pick(0, static_cast<int>(leaves.size()) - 1))];
  }

  Term combine_add(const Term& a, const Term& b, ScalarKind kind) {
    if (kind != ScalarKind::I32 && a.bound + b.bound > 64)
      return {a.sym * 0.25 + b.sym * 0.25, (a.bound + b.bound) * 0.25};
    return {a.sym + b.sym, a.bound + b.bound};
  }

  Term expr(const std::vector<Term>& leaves, ScalarKind kind, int depth) {
    if (depth <= 0 || coin(0.25))
      return leaf(leaves, kind);
    Term a = expr(leaves, kind, depth - 1);
    return kind == ScalarKind::I32 ? int_op(a, leaves, depth) : float_op(a, leaves, kind, depth);
  }

  Term float_op(const Term& a, const std::vector<Term>& leaves, ScalarKind kind, int depth) {
    const double limit = 64;
    auto other = [&] { return expr(leaves, kind, depth - 1); };
    switch (pick(0, 15)) {
    case 0: {
      Term b = other();
      return combine_add(a, b, kind);
    }
    case 1: {
      Term b = other();
      if (a.bound + b.bound > limit)
        return {(a.sym - b.sym) * 0.25, (a.bound + b.bound) * 0.25};
      return {a.sym - b.sym, a.bound + b.bound};
    }
    case 2: {
      static const double factors[] = {0.5, 0.25, -0.75, 1.5};
      double c = factors[pick(0, 3)];
      if (a.bound * std::fabs(c) > limit)
        c = 0.125;
      return {a.sym * c, a.bound * std::fabs(c)};
    }
    case 3: {
      Term b = other();
      if (a.bound * b.bound > 8)
        return {sin(a.sym) * sin(b.sym), 1};
      return {a.sym * b.sym, a.bound * b.bound};
    }
    case 4: {
      Term b = other();
      return {select(a.sym > b.sym, a.sym, b.sym), std::max(a.bound, b.bound)};
    }
    case 5: {
      Term b = other();
      return {fmin(a.sym, b.sym), std::max(a.bound, b.bound)};
    }
    case 6: {
      Term b = other();
      return {fmax(a.sym, b.sym), std::max(a.bound, b.bound)};
    }
    case 7:
      return {fabs(a.sym), a.bound};
    case 8:
      return {sqrt(fabs(a.sym) + 1.0), std::sqrt(a.bound + 1)};
    case 9:
      return {sin(a.sym), 1};
    case 10:
      return {cos(a.sym), 1};
    case 11:
      return {exp(fmin(a.sym, 1.0)), 2.72};
    case 12: {
      Term b = other();
      return {a.sym / (fabs(b.sym) + 1.0), a.bound};
    }
    case 13: {
      Term b = other();
      return {select(a.sym < 0.25, b.sym, a.sym), std::max(a.bound, b.bound)};
    }
    case 14:
      return {log(fabs(a.sym) + 1.0), std::log(a.bound + 1) + 0.01};
    default:
      return {-a.sym, a.bound};
    }
  }

  Term int_op(const Term& a, const std::vector<Term>& leaves, int depth) {
    const double limit = 1 << 26;
    auto other = [&] { return expr(leaves, ScalarKind::I32, depth - 1); };
    switch (pick(0, 10)) {
    case 0: {
      Term b = other();
      if (a.bound + b.bound > limit)
        return {a.sym % 1000 + b.sym % 1000, 2000};
      return {a.sym + b.sym, a.bound + b.bound};
    }
    case 1: {
      Term b = other();
      if (a.bound + b.bound > limit)
        return {a.sym % 1000 - b.sym % 1000, 2000};
      return {a.sym - b.sym, a.bound + b.bound};
    }
    case 2: {
      static const int factors[] = {2, 3, -1, -2};
      int c = factors[pick(0, 3)];
      if (a.bound * std::abs(c) > limit)
        return {a.sym % 1000, 1000};
      return {a.sym * c, a.bound * std::abs(c)};
    }
    case 3: {
      Term b = other();
      if (a.bound * b.bound > limit)
        return {(a.sym % 100) * (b.sym % 100), 10000};
      return {a.sym * b.sym, a.bound * b.bound};
    }
    case 4: {
      Term b = other();
      return {select(a.sym > b.sym, a.sym, b.sym), std::max(a.bound, b.bound)};
    }
    case 5: {
      Term b = other();
      return {select(a.sym < b.sym, a.sym, b.sym), std::max(a.bound, b.bound)};
    }
    case 6: {
      static const int divisors[] = {2, 3, -4, 7};
      return {a.sym / divisors[pick(0, 3)], a.bound};
    }
    case 7: {
      static const int divisors[] = {3, 5, 7, -6};
      int c = divisors[pick(0, 3)];
      return {a.sym % c, static_cast<double>(std::abs(c))};
    }
    case 8: {
      Term b = other();
      return {select(a.sym % 2 == 0, a.sym, b.sym), std::max(a.bound, b.bound)};
    }
    case 9:
      return {select(a.sym < 0, -a.sym, a.sym), a.bound};
    default:
      return {-a.sym, a.bound};
    }
  }

  std::mt19937 rng_;
  int depth_;
  std::string pick_name() {
    // Less the names of an open bug (Reproducers.h), which the fuzzer would only find again.
    static const std::vector<std::string> pool = [] {
      std::vector<std::string> v;
      for (const auto& n : tricky_names())
        if (!open_bug_names().count(n))
          v.push_back(n);
      return v;
    }();
    return pool[static_cast<std::size_t>(pick(0, static_cast<int>(pool.size()) - 1))];
  }

  int names_;
  std::set<std::string> fun_names_;
  int counter_ = 0;
  std::size_t next_leaf_ = 0;
};

} // namespace tessera::fuzz
