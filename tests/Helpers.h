// Shared helpers for tests: random data, host-array conversion and plain-loop references.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <vector>

#include "core/Data.h"
#include "core/Error.h"

namespace tessera::testing {

// Deterministic random floats in [-1, 1) (never all zeros).
// The message of the tessera::Error that f throws; "(no error)" when it throws none.
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

// Whether `text` contains `part` (an error message, a command's output).
inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The whole text of a file ("" when it cannot be read).
inline std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::vector<double> random_values(std::size_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<double> v(count);
  for (auto& x : v)
    x = dist(rng);
  return v;
}

inline Data random_f32(const std::vector<int64_t>& shape, uint32_t seed) {
  std::size_t count = 1;
  for (auto n : shape)
    count *= static_cast<std::size_t>(n);
  return Data::from_flat(ScalarKind::F32, shape, random_values(count, seed));
}

inline Data f32_array(const std::vector<double>& values) {
  return Data::from_flat(ScalarKind::F32, {static_cast<int64_t>(values.size())}, values);
}

// Whether flat index i of a row-major grid of `shape` lies within `radius` of an edge (the cells a
// fixed boundary keeps).
inline bool in_halo(int64_t i, const std::vector<int64_t>& shape, int64_t radius) {
  for (auto d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
    int64_t p = i % shape[d];
    i /= shape[d];
    if (p < radius || p >= shape[d] - radius)
      return true;
  }
  return false;
}

// Index of a padded position in [0, n) for the boundary kinds, as a plain loop would do it.
// Returns -1 for a constant boundary outside the array.
inline int64_t reference_boundary(const std::string& kind, int64_t i, int64_t n) {
  if (i >= 0 && i < n)
    return i;
  if (kind == "clamp")
    return i < 0 ? 0 : n - 1;
  if (kind == "mirror" || kind == "antisymmetric")
    return i < 0 ? -1 - i : 2 * n - 1 - i;
  if (kind == "wrap")
    return ((i % n) + n) % n;
  return -1;
}

// The factor of the element read at padded position i: -1 outside the array for antisymmetric.
inline double reference_sign(const std::string& kind, int64_t i, int64_t n) {
  return kind == "antisymmetric" && (i < 0 || i >= n) ? -1.0 : 1.0;
}

} // namespace tessera::testing
