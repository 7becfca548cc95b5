#include "runtime/Range.h"

#include "core/Error.h"

namespace tessera::runtime {

Range Range::of(const std::vector<std::size_t>& sizes) {
  if (sizes.size() > 3)
    user_error(cat("an OpenCL launch range has 1 to 3 dimensions, got ", sizes.size()));
  Range r;
  r.dims_ = static_cast<int>(sizes.size());
  for (std::size_t i = 0; i < sizes.size(); ++i)
    r.sizes_[i] = sizes[i];
  return r;
}

std::string Range::str() const {
  if (dims_ == 0)
    return "auto";
  std::string out;
  for (int i = 0; i < dims_; ++i) {
    if (i > 0)
      out += "x";
    out += std::to_string(sizes_[static_cast<std::size_t>(i)]);
  }
  return out;
}

void Range::negative_size(long long value) {
  user_error(cat("a launch range size must not be negative, got ", value));
}

} // namespace tessera::runtime
