// The reference interpreter: evaluates any well-typed expression on host data.
//
// It is the oracle that code generation and rewriting are checked against, so it follows the
// definitions of DESIGN.md section 2 literally and makes no attempt to be fast. Each
// primitive's semantics lives beside its type rule in primitives/.
#pragma once

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/Data.h"
#include "core/Expr.h"

namespace tessera {

class TypeChecker;

class Interpreter {
public:
  // Value of a value expression.
  Data eval(const Expr& e);
  // Result of applying function `f` to the arguments.
  Data apply(const Expr& f, const std::vector<Data>& args);
  void bind(const Expr& param, Data value);

  // Values of size variables, learnt from the inputs' lengths.
  std::map<std::string, int64_t>& sizes() { return sizes_; }
  int64_t size_value(const ArithExpr& e) const; // evaluates with sizes(); Error if unbound

  // The checker that type-checked the program (evaluate() sets it; it must outlive the
  // evaluation). A few primitives need types on empty arrays, whose values do not show their
  // element shape: argument_type() is the argument type recorded for `f` by its type rule, or
  // nullptr when unknown (see TypeChecker::record_argument).
  void use_types(const TypeChecker* checker) { checker_ = checker; }
  const Type* argument_type(const Node& f) const;

private:
  std::unordered_map<const Node*, Data> env_;
  std::map<std::string, int64_t> sizes_;
  const TypeChecker* checker_ = nullptr;
};

// Runs a program (a lambda with typed inputs) on the given inputs. Checks the inputs against
// the declared types, binds the size variables, type-checks the program and evaluates it.
Data evaluate(const Expr& program, const std::vector<Data>& inputs);

// The primitives' semantics (implemented in primitives/), for every kind except Lambda.
Data primitive_eval(Interpreter& interp, const Node& f, const std::vector<Data>& args);

} // namespace tessera
