// Types of tessera values: scalars, arrays with symbolic lengths, and tuples.
//
//   scalar  f32 | f64 | i32 | u8 | bool
//   array   [T]_n     n is an ArithExpr (a constant or an expression over size variables)
//   tuple   {T1, ..., Tk}
//
// Types are immutable values; equality is structural and compares lengths symbolically.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/arith/ArithExpr.h"

namespace tessera {

enum class ScalarKind { F32, F64, I32, U8, Bool };

std::string to_string(ScalarKind kind); // "f32", ...
bool is_floating(ScalarKind kind);
ScalarKind scalar_kind_from_string(const std::string& name); // throws Error on unknown names

enum class TypeKind { Scalar, Array, Tuple };

struct TypeNode;

class Type {
public:
  static Type scalar(ScalarKind kind);
  static Type array(Type element, ArithExpr length);
  static Type tuple(std::vector<Type> elements);

  TypeKind kind() const;
  bool is_scalar() const { return kind() == TypeKind::Scalar; }
  bool is_array() const { return kind() == TypeKind::Array; }
  bool is_tuple() const { return kind() == TypeKind::Tuple; }

  ScalarKind scalar_kind() const;            // Scalar only
  const Type& element() const;               // Array only
  const ArithExpr& length() const;           // Array only
  const std::vector<Type>& elements() const; // Tuple only

  // Number of nested array levels: [[f32]_m]_n has rank 2, f32 has rank 0.
  int rank() const;
  // The first non-array type inside (f32 for [[f32]_m]_n).
  const Type& innermost() const;
  // Lengths of the nested array levels from the outside in: [[f32]_m]_n -> {n, m}.
  std::vector<ArithExpr> shape() const;
  // Total number of scalars in a value of this type (tuples sum their members).
  ArithExpr scalar_count() const;

  std::string to_string() const; // "[[f32]_M]_N", "[f32]_(N + 2)", "{f32,i32}"
  bool operator==(const Type& other) const;
  bool operator!=(const Type& other) const { return !(*this == other); }

private:
  explicit Type(std::shared_ptr<const TypeNode> node) : node_(std::move(node)) {}
  std::shared_ptr<const TypeNode> node_;
};

// Convenience constructors used throughout the code and by users.
inline Type f32() {
  return Type::scalar(ScalarKind::F32);
}
inline Type f64() {
  return Type::scalar(ScalarKind::F64);
}
inline Type i32() {
  return Type::scalar(ScalarKind::I32);
}
inline Type u8() {
  return Type::scalar(ScalarKind::U8);
}
inline Type boolean() {
  return Type::scalar(ScalarKind::Bool);
}
// array_of(f32(), {N, M}) is [[f32]_M]_N: lengths from the outermost level inwards.
Type array_of(Type element, const std::vector<ArithExpr>& shape);

std::ostream& operator<<(std::ostream& out, const Type& type);

} // namespace tessera
