#include "core/RandomData.h"

#include <cmath>
#include <random>

#include "core/Error.h"

namespace tessera {

std::vector<double> random_scalars(ScalarKind kind, std::size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-1.0, 1.0);
  std::vector<double> values(count);
  for (auto& v : values) {
    double x = dist(rng);
    switch (kind) {
    case ScalarKind::F32:
      v = static_cast<float>(x);
      break;
    case ScalarKind::F64:
      v = x;
      break;
    case ScalarKind::I32:
      v = std::floor(x * 100);
      break;
    case ScalarKind::U8:
      v = std::floor((x + 1) * 127);
      break;
    case ScalarKind::Bool:
      v = x > 0;
      break;
    }
  }
  return values;
}

uint32_t input_seed(uint32_t seed, uint32_t k) {
  return seed * 7919 + k;
}

Data random_value(const Type& type, uint32_t seed) {
  std::vector<int64_t> shape;
  for (const auto& n : type.shape()) {
    auto c = n.as_constant();
    if (!c)
      user_error(cat("random data needs constant lengths, got ", type));
    shape.push_back(*c);
  }
  if (!type.innermost().is_scalar())
    user_error(cat("random data supports arrays of scalars, got ", type));
  std::size_t count = 1;
  for (auto n : shape)
    count *= static_cast<std::size_t>(n);
  ScalarKind kind = type.innermost().scalar_kind();
  std::vector<double> values = random_scalars(kind, count, seed);
  if (type.is_scalar())
    return Data::scalar(ScalarValue::make(kind, values.at(0)));
  return Data::from_flat(kind, shape, values);
}

std::vector<Data> random_inputs(const Expr& program, uint32_t seed) {
  std::vector<Data> inputs;
  uint32_t k = 0;
  for (const auto& t : input_types(program))
    inputs.push_back(random_value(t, input_seed(seed, k++)));
  return inputs;
}

} // namespace tessera
