// Type inference.
//
// Types are not stored in nodes: a TypeChecker computes them and keeps them in a side table
// keyed by node, which later passes (code generation) read. Lambda parameters get their types
// when the lambda is applied; program inputs carry declared types.
//
// Every type rule raises tessera::Error naming the primitive, the type it got and what it
// needed (see primitives/*.cpp). When a side condition cannot be decided symbolically (Split(4)
// of [f32]_N), it is recorded as an assumption and checked once sizes are known.
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/Assumption.h"
#include "core/Expr.h"

namespace tessera {

// A condition the program relies on that could not be proven for all sizes, e.g. N % 4 == 0.

class TypeChecker {
public:
  // Type of a value expression (Param, Literal or Call).
  Type check(const Expr& e);
  // Result type of applying function `f` to arguments of the given types.
  Type apply(const Expr& f, const std::vector<Type>& args);
  // Binds a lambda parameter.
  void bind(const Expr& param, const Type& type) { bind(param.get(), type); }
  void bind(const Node* param, const Type& type);

  // The type recorded for a value expression visited by check(); throws InternalError if none.
  const Type& type_of(const Expr& e) const;
  bool has_type(const Expr& e) const { return types_.count(e.get()) != 0; }

  void assume(ArithExpr must_be_zero, std::string message);
  const std::vector<Assumption>& assumptions() const { return assumptions_; }

  // The argument type of a primitive application, recorded by type rules whose semantics need
  // more than the argument's value shows: the row length of a Transpose of an empty array, the
  // element shape a constant Pad fills in around an empty array. recorded_argument() gives
  // nullptr when nothing was recorded for `f` or when `f` was applied to different types.
  void record_argument(const Node* f, const Type& arg);
  const Type* recorded_argument(const Node* f) const;

private:
  std::unordered_map<const Node*, Type> types_;
  std::vector<Assumption> assumptions_;
  std::unordered_map<const Node*, std::optional<Type>> recorded_; // nullopt: several types
};

// Type of a program: a lambda whose parameters have declared types, or a value expression.
Type infer_type(const Expr& program);
// Parameter types of a program lambda (its declared input types).

// The primitives' type rules (implemented in primitives/). Called by TypeChecker::apply for
// every function kind except Lambda.
Type primitive_type(TypeChecker& checker, const Node& f, const std::vector<Type>& args);

} // namespace tessera
