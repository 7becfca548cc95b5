// A stable 64-bit hash (FNV-1a) for cache keys and kernel source hashes. Unlike std::hash it
// gives the same value in every run, build and platform.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::runtime {

constexpr uint64_t kFnvOffset = 14695981039346656037ull;
constexpr uint64_t kFnvPrime = 1099511628211ull;

constexpr uint64_t fnv1a64(std::string_view bytes, uint64_t hash = kFnvOffset) {
  for (char c : bytes) {
    hash ^= static_cast<uint8_t>(c);
    hash *= kFnvPrime;
  }
  return hash;
}

// Hashes a sequence of fields; each field is length-prefixed so that ("ab", "c") and
// ("a", "bc") differ.
class Hasher {
public:
  Hasher& add(std::string_view field) {
    uint64_t n = field.size();
    for (int i = 0; i < 8; ++i)
      byte(static_cast<uint8_t>(n >> (8 * i)));
    hash_ = fnv1a64(field, hash_);
    return *this;
  }
  uint64_t value() const { return hash_; }

private:
  void byte(uint8_t b) {
    hash_ ^= b;
    hash_ *= kFnvPrime;
  }
  uint64_t hash_ = kFnvOffset;
};

// 16 lowercase hex digits.
std::string hex64(uint64_t value);

} // namespace tessera::runtime
