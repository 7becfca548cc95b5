// Checked integers out of JSON documents. nlohmann's get<int>() converts a floating-point number
// (1e300) with a plain cast, which is undefined behaviour when it is out of range, and an integer
// out of the target's range to a wrong value; the loaders of expressions and reports read every
// integer through json_integer instead and report anything else as bad input.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>

#include <nlohmann/json.hpp>

namespace tessera {

// The value of `v` as a T when it is a JSON integer that T represents; nullopt otherwise (a
// floating-point number too, as tessera's writers never write one for an integer).
template <class T> std::optional<T> json_integer(const nlohmann::json& v) {
  if (v.is_number_unsigned()) {
    auto u = v.get<std::uint64_t>();
    return std::in_range<T>(u) ? std::optional<T>(static_cast<T>(u)) : std::nullopt;
  }
  if (v.is_number_integer()) {
    auto i = v.get<std::int64_t>();
    return std::in_range<T>(i) ? std::optional<T>(static_cast<T>(i)) : std::nullopt;
  }
  return std::nullopt;
}

} // namespace tessera
