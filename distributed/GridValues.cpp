#include "distributed/GridValues.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace tessera::distributed {

uint64_t mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

void store(ScalarKind kind, double value, unsigned char* out) {
  switch (kind) {
  case ScalarKind::F32: {
    float v = static_cast<float>(value);
    std::memcpy(out, &v, sizeof v);
    return;
  }
  case ScalarKind::F64:
    std::memcpy(out, &value, sizeof value);
    return;
  case ScalarKind::I32: {
    auto v = static_cast<int32_t>(value);
    std::memcpy(out, &v, sizeof v);
    return;
  }
  case ScalarKind::U8:
  case ScalarKind::Bool:
    *out = static_cast<unsigned char>(value);
    return;
  }
}

double load(ScalarKind kind, const unsigned char* in) {
  switch (kind) {
  case ScalarKind::F32: {
    float v;
    std::memcpy(&v, in, sizeof v);
    return v;
  }
  case ScalarKind::F64: {
    double v;
    std::memcpy(&v, in, sizeof v);
    return v;
  }
  case ScalarKind::I32: {
    int32_t v;
    std::memcpy(&v, in, sizeof v);
    return v;
  }
  case ScalarKind::U8:
  case ScalarKind::Bool:
    return *in;
  }
  return 0;
}

double initial_value(uint64_t index, uint32_t seed, ScalarKind kind) {
  uint64_t h = mix(index ^ mix(seed));
  if (is_floating(kind))
    return static_cast<double>(h >> 11) * 0x1.0p-53 * 2.0 - 1.0;
  return static_cast<double>(h & 1);
}

void parallel_for_each_point(
    const Block& b, const std::vector<int64_t>& global,
    const std::function<void(unsigned thread, int64_t local, uint64_t global)>& f) {
  const int64_t rows = b.extent.empty() ? 0 : b.extent[0];
  const auto threads = static_cast<unsigned>(std::clamp<int64_t>(
      std::min<int64_t>(rows, std::thread::hardware_concurrency()), 1, kMaxThreads));
  const int64_t row_points = rows == 0 ? 0 : b.points() / rows;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      const int64_t first = rows * t / threads, last = rows * (t + 1) / threads;
      Block part = b;
      part.offset[0] += first;
      part.extent[0] = last - first;
      const int64_t base = first * row_points;
      for_each_point(part, global, [&](int64_t local, uint64_t g) { f(t, base + local, g); });
    });
  for (auto& worker : pool)
    worker.join();
}

} // namespace tessera::distributed
