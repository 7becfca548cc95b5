// An N-dimensional launch range (1 to 3 dimensions), e.g. Range{1024}, Range{64, 64}.
// The empty Range{} as a local size lets the OpenCL implementation choose.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>
#include <string>
#include <vector>

namespace tessera::runtime {

class Range {
public:
  Range() = default;
  template <std::integral... I>
  requires(sizeof...(I) >= 1 && sizeof...(I) <= 3) Range(I... sizes)
      : dims_(static_cast<int>(sizeof...(I))) {
    std::size_t i = 0;
    ((sizes_[i++] = to_size(sizes)), ...);
  }
  // From a vector of 0 to 3 sizes.
  static Range of(const std::vector<std::size_t>& sizes);

  int dims() const { return dims_; }
  bool empty() const { return dims_ == 0; }
  std::size_t operator[](int i) const { return sizes_[static_cast<std::size_t>(i)]; }
  const std::size_t* data() const { return sizes_.data(); }
  // Product of the sizes (1 for an empty range).
  std::size_t total() const { return sizes_[0] * sizes_[1] * sizes_[2]; }
  // "1024x64", or "auto" when empty.
  std::string str() const;

  friend bool operator==(const Range&, const Range&) = default;

private:
  template <std::integral I> static std::size_t to_size(I value) {
    if (value < 0)
      negative_size(static_cast<long long>(value));
    return static_cast<std::size_t>(value);
  }
  [[noreturn]] static void negative_size(long long value);

  std::array<std::size_t, 3> sizes_{1, 1, 1};
  int dims_ = 0;
};

} // namespace tessera::runtime
