#include "core/Data.h"

#include <ostream>

#include "core/Error.h"

namespace tessera {

Data Data::scalar(ScalarValue v) {
  Data d;
  d.kind_ = Kind::Scalar;
  d.scalar_ = v;
  return d;
}

Data Data::array(std::vector<Data> elements) {
  Data d;
  d.kind_ = Kind::Array;
  d.items_ = std::make_shared<const std::vector<Data>>(std::move(elements));
  return d;
}

Data Data::tuple(std::vector<Data> elements) {
  Data d;
  d.kind_ = Kind::Tuple;
  d.items_ = std::make_shared<const std::vector<Data>>(std::move(elements));
  return d;
}

namespace {
Data build(ScalarKind kind, const std::vector<int64_t>& shape, std::size_t level,
           const std::vector<double>& values, std::size_t& next) {
  if (level == shape.size())
    return Data::scalar(ScalarValue::make(kind, values[next++]));
  std::vector<Data> items;
  items.reserve(static_cast<std::size_t>(shape[level]));
  for (int64_t i = 0; i < shape[level]; ++i)
    items.push_back(build(kind, shape, level + 1, values, next));
  return Data::array(std::move(items));
}
} // namespace

Data Data::from_flat(ScalarKind kind, const std::vector<int64_t>& shape,
                     const std::vector<double>& values) {
  std::size_t count = 1;
  for (auto n : shape) {
    if (n < 0)
      user_error("Data::from_flat: negative extent");
    count *= static_cast<std::size_t>(n);
  }
  if (count != values.size())
    user_error(cat("Data::from_flat: shape holds ", count, " values, got ", values.size()));
  std::size_t next = 0;
  return build(kind, shape, 0, values, next);
}

const ScalarValue& Data::as_scalar() const {
  if (!is_scalar())
    user_error("expected a scalar, got " + to_string());
  return scalar_;
}

const std::vector<Data>& Data::elements() const {
  if (is_scalar())
    user_error("expected an array or tuple, got the scalar " + to_string());
  return *items_;
}

std::vector<double> Data::flatten() const {
  std::vector<double> out;
  std::function<void(const Data&)> walk = [&](const Data& d) {
    if (d.is_scalar()) {
      out.push_back(d.number());
      return;
    }
    for (const auto& e : d.elements())
      walk(e);
  };
  walk(*this);
  return out;
}

std::string Data::to_string() const {
  if (is_scalar())
    return scalar_.to_string();
  std::string s = is_array() ? "[" : "{";
  for (std::size_t i = 0; i < items_->size(); ++i)
    s += (i ? ", " : "") + (*items_)[i].to_string();
  return s + (is_array() ? "]" : "}");
}

bool Data::operator==(const Data& other) const {
  if (kind_ != other.kind_)
    return false;
  if (is_scalar())
    return scalar_ == other.scalar_;
  return *items_ == *other.items_;
}

std::ostream& operator<<(std::ostream& out, const Data& d) {
  return out << d.to_string();
}

} // namespace tessera
