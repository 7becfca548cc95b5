// Symbolic integer arithmetic for array lengths and index expressions.
//
// An ArithExpr is an immutable, reference-counted value. Every operator returns an expression
// that is already simplified into canonical form (constant folding, like terms collected,
// commutative operands ordered), so structural equality is a good equality test.
//
// Division semantics: `/` is FLOOR division and `%` is the matching FLOOR modulo, so
// `a == (a / b) * b + a % b` always holds and `a % b` has the sign of b. With floor semantics
// `(a + k*b) / b == a / b + k` and `(a + k*b) % b == a % b` hold for every integer a, which is
// what makes index arithmetic simplify cleanly. For non-negative operands this agrees with C.
// Division or modulo by a constant zero is a user error (tessera::Error).
//
// Variables are identified by name. A variable may carry an inclusive range [lo, hi] whose
// bounds are themselves expressions (for example a thread index `i` in [0, N-1]); size
// variables (`size_var("N")`) are in [1, +inf). Ranges drive the range-based simplifications
// (`x % n -> x` when 0 <= x < n, min/max/comparison elimination) and the prover.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace tessera {

enum class ArithKind {
  Cst,    // integer constant
  Var,    // named variable with an optional range
  Add,    // n-ary sum, operands canonically ordered, at most one constant (last)
  Mul,    // n-ary product, operands canonically ordered, at most one constant (first)
  Div,    // floor division (binary)
  Mod,    // floor modulo (binary)
  Min,    // binary minimum
  Max,    // binary maximum
  Lt,     // a < b, value 1 or 0
  Le,     // a <= b, value 1 or 0
  Eq,     // a == b, value 1 or 0
  And,    // logical and of two 0/1 values
  Select, // cond ? a : b (cond is 0/1)
};

// Three-valued answer of the prover: it never throws and never guesses.
enum class Truth { Yes, No, Unknown };

struct ArithNode;

class ArithExpr {
public:
  ArithExpr();              // the constant 0
  ArithExpr(int64_t value); // implicit: constants mix freely with expressions
  ArithExpr(int value) : ArithExpr(static_cast<int64_t>(value)) {}

  // A variable; lo/hi are inclusive bounds, absent means unbounded on that side.
  static ArithExpr var(std::string name, std::optional<ArithExpr> lo = std::nullopt,
                       std::optional<ArithExpr> hi = std::nullopt);
  // A size variable: a variable with range [1, +inf).
  static ArithExpr size_var(std::string name);

  ArithKind kind() const;
  bool is_constant() const { return kind() == ArithKind::Cst; }
  std::optional<int64_t> as_constant() const;
  int64_t value() const;               // Cst only
  const std::string& name() const;     // Var only
  std::optional<ArithExpr> lo() const; // Var only: declared lower bound
  std::optional<ArithExpr> hi() const; // Var only: declared upper bound
  const std::vector<ArithExpr>& operands() const;

  // Evaluates with the given variable values; throws tessera::Error naming an unbound variable.
  int64_t evaluate(const std::map<std::string, int64_t>& env) const;
  // Replaces variables by expressions (by name) and re-simplifies.
  ArithExpr substitute(const std::map<std::string, ArithExpr>& replacement) const;
  // Names of all variables in the expression, sorted.
  std::vector<std::string> variables() const;

  // Human-readable, deterministic text, e.g. "(N + -2)", "((i / 4) * 4)". Used by the printer.
  std::string to_string() const;

  // Structural equality of canonical forms (so `a + b == b + a`).
  bool same_as(const ArithExpr& other) const;
  std::size_t hash() const;
  // Strict weak order of canonical forms (for maps and canonical operand ordering).
  bool less_than(const ArithExpr& other) const;

  const ArithNode* node() const { return node_.get(); }

private:
  explicit ArithExpr(std::shared_ptr<const ArithNode> node) : node_(std::move(node)) {}
  std::shared_ptr<const ArithNode> node_;
  friend struct ArithBuilder;
};

ArithExpr operator+(const ArithExpr& a, const ArithExpr& b);
ArithExpr operator-(const ArithExpr& a, const ArithExpr& b);
ArithExpr operator-(const ArithExpr& a);
ArithExpr operator*(const ArithExpr& a, const ArithExpr& b);
ArithExpr operator/(const ArithExpr& a, const ArithExpr& b); // floor division
ArithExpr operator%(const ArithExpr& a, const ArithExpr& b); // floor modulo
ArithExpr min(const ArithExpr& a, const ArithExpr& b);
ArithExpr max(const ArithExpr& a, const ArithExpr& b);
ArithExpr lt(const ArithExpr& a, const ArithExpr& b);
ArithExpr le(const ArithExpr& a, const ArithExpr& b);
ArithExpr eq(const ArithExpr& a, const ArithExpr& b);
ArithExpr logical_and(const ArithExpr& a, const ArithExpr& b);
ArithExpr select(const ArithExpr& cond, const ArithExpr& if_true, const ArithExpr& if_false);

inline bool operator==(const ArithExpr& a, const ArithExpr& b) {
  return a.same_as(b);
}
inline bool operator!=(const ArithExpr& a, const ArithExpr& b) {
  return !a.same_as(b);
}

// Inclusive numeric interval; nullopt ends mean unbounded.
struct Interval {
  std::optional<int64_t> lo, hi;
};
// Numeric bounds from the variables' ranges (symbolic bounds are followed to numbers).
Interval bounds_of(const ArithExpr& e);

// Proves facts from variable ranges; symbolic bounds are substituted so that e.g.
// `i + 1 <= N` is proven for i in [0, N-1].
Truth prove_nonneg(const ArithExpr& e); // e >= 0
Truth prove_lt(const ArithExpr& a, const ArithExpr& b);
Truth prove_le(const ArithExpr& a, const ArithExpr& b);
Truth prove_eq(const ArithExpr& a, const ArithExpr& b);
// Does b divide a for every value of the variables? (e.g. 4*N divisible by 2 -> Yes)
Truth prove_divisible(const ArithExpr& a, const ArithExpr& b);

// JSON: {"cst":3} / {"var":"N","lo":...,"hi":...} / {"op":"add","args":[...]}.
void to_json(nlohmann::json& j, const ArithExpr& e);
void from_json(const nlohmann::json& j, ArithExpr& e); // throws tessera::Error on bad input

struct ArithHash {
  std::size_t operator()(const ArithExpr& e) const { return e.hash(); }
};
struct ArithLess {
  bool operator()(const ArithExpr& a, const ArithExpr& b) const { return a.less_than(b); }
};

} // namespace tessera
