// Host data for the reference interpreter: a scalar, an array of Data, or a tuple of Data.
// Arrays share their storage, so the data-layout primitives can be written as plain copies of
// handles without copying elements.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/Scalar.h"

namespace tessera {

class Data {
public:
  Data() = default;
  static Data scalar(ScalarValue v);
  static Data f32(double v) { return scalar(ScalarValue::make(ScalarKind::F32, v)); }
  static Data array(std::vector<Data> elements);
  static Data tuple(std::vector<Data> elements);
  // A dense array of the given shape filled from `values` in row-major order.
  static Data from_flat(ScalarKind kind, const std::vector<int64_t>& shape,
                        const std::vector<double>& values);

  bool is_scalar() const { return kind_ == Kind::Scalar; }
  bool is_array() const { return kind_ == Kind::Array; }
  bool is_tuple() const { return kind_ == Kind::Tuple; }

  const ScalarValue& as_scalar() const; // throws Error if not a scalar
  double number() const { return as_scalar().as_double(); }
  const std::vector<Data>& elements() const; // array or tuple
  std::size_t size() const { return elements().size(); }
  const Data& operator[](std::size_t i) const { return elements().at(i); }

  // All scalars in row-major order (tuples contribute their members in order).
  std::vector<double> flatten() const;
  std::string to_string() const; // [1, 2, 3] / {1, 2}
  bool operator==(const Data& other) const;

private:
  enum class Kind { Scalar, Array, Tuple } kind_ = Kind::Scalar;
  ScalarValue scalar_;
  std::shared_ptr<const std::vector<Data>> items_;
};

std::ostream& operator<<(std::ostream& out, const Data& d);

} // namespace tessera
