#include "core/Type.h"

#include <ostream>

#include "core/Error.h"

namespace tessera {

struct TypeNode {
  TypeKind kind;
  ScalarKind scalar = ScalarKind::F32;
  std::vector<Type> members; // array: one element type; tuple: the components
  ArithExpr length;          // array only
};

std::string to_string(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F32:
    return "f32";
  case ScalarKind::F64:
    return "f64";
  case ScalarKind::I32:
    return "i32";
  case ScalarKind::U8:
    return "u8";
  case ScalarKind::Bool:
    return "bool";
  }
  internal_error("unknown scalar kind");
}

bool is_floating(ScalarKind kind) {
  return kind == ScalarKind::F32 || kind == ScalarKind::F64;
}

ScalarKind scalar_kind_from_string(const std::string& name) {
  for (auto kind :
       {ScalarKind::F32, ScalarKind::F64, ScalarKind::I32, ScalarKind::U8, ScalarKind::Bool})
    if (to_string(kind) == name)
      return kind;
  user_error(cat("unknown scalar type '", name, "': expected one of f32, f64, i32, u8, bool"));
}

Type Type::scalar(ScalarKind kind) {
  return Type(std::make_shared<const TypeNode>(TypeNode{TypeKind::Scalar, kind, {}, {}}));
}

Type Type::array(Type element, ArithExpr length) {
  if (auto n = length.as_constant(); n && *n < 0)
    user_error(cat("array length must not be negative, got ", *n));
  return Type(std::make_shared<const TypeNode>(
      TypeNode{TypeKind::Array, ScalarKind::F32, {std::move(element)}, std::move(length)}));
}

Type Type::tuple(std::vector<Type> elements) {
  if (elements.empty())
    user_error("a tuple type needs at least one component");
  return Type(std::make_shared<const TypeNode>(
      TypeNode{TypeKind::Tuple, ScalarKind::F32, std::move(elements), {}}));
}

TypeKind Type::kind() const {
  return node_->kind;
}

ScalarKind Type::scalar_kind() const {
  if (!is_scalar())
    internal_error("scalar_kind() of non-scalar type " + to_string());
  return node_->scalar;
}

const Type& Type::element() const {
  if (!is_array())
    internal_error("element() of non-array type " + to_string());
  return node_->members.front();
}

const ArithExpr& Type::length() const {
  if (!is_array())
    internal_error("length() of non-array type " + to_string());
  return node_->length;
}

const std::vector<Type>& Type::elements() const {
  if (!is_tuple())
    internal_error("elements() of non-tuple type " + to_string());
  return node_->members;
}

int Type::rank() const {
  return is_array() ? 1 + element().rank() : 0;
}

const Type& Type::innermost() const {
  return is_array() ? element().innermost() : *this;
}

std::vector<ArithExpr> Type::shape() const {
  std::vector<ArithExpr> result;
  for (const Type* t = this; t->is_array(); t = &t->element())
    result.push_back(t->length());
  return result;
}

ArithExpr Type::scalar_count() const {
  switch (kind()) {
  case TypeKind::Scalar:
    return 1;
  case TypeKind::Array:
    return length() * element().scalar_count();
  case TypeKind::Tuple: {
    ArithExpr sum = 0;
    for (const auto& t : elements())
      sum = sum + t.scalar_count();
    return sum;
  }
  }
  internal_error("unknown type kind");
}

std::string Type::to_string() const {
  switch (kind()) {
  case TypeKind::Scalar:
    return tessera::to_string(scalar_kind());
  case TypeKind::Array: {
    // A length that is not an atom is parenthesised: [f32]_(N + 2), not [f32]_N + 2.
    const ArithExpr& n = length();
    bool atom = n.kind() == ArithKind::Cst || n.kind() == ArithKind::Var ||
                n.kind() == ArithKind::Min || n.kind() == ArithKind::Max;
    // Appended piece by piece: GCC 12 warns (a false -Wstringop-overflow) on "[" + string.
    std::string s = "[";
    s += element().to_string();
    s += "]_";
    s += atom ? n.to_string() : cat("(", n.to_string(), ")");
    return s;
  }
  case TypeKind::Tuple: {
    std::string s = "{";
    for (std::size_t i = 0; i < elements().size(); ++i) {
      if (i)
        s += ",";
      s += elements()[i].to_string();
    }
    return s + "}";
  }
  }
  internal_error("unknown type kind");
}

bool Type::operator==(const Type& other) const {
  if (node_ == other.node_)
    return true;
  if (kind() != other.kind())
    return false;
  switch (kind()) {
  case TypeKind::Scalar:
    return scalar_kind() == other.scalar_kind();
  case TypeKind::Array:
    return element() == other.element() && prove_eq(length(), other.length()) == Truth::Yes;
  case TypeKind::Tuple:
    return elements() == other.elements();
  }
  return false;
}

Type array_of(Type element, const std::vector<ArithExpr>& shape) {
  for (auto it = shape.rbegin(); it != shape.rend(); ++it)
    element = Type::array(element, *it);
  return element;
}

std::ostream& operator<<(std::ostream& out, const Type& type) {
  return out << type.to_string();
}

} // namespace tessera
