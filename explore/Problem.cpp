#include "explore/Problem.h"

namespace tessera::explore {

std::size_t cells(const std::vector<int64_t>& extents) {
  std::size_t n = 1;
  for (auto e : extents)
    n *= static_cast<std::size_t>(e);
  return n;
}

} // namespace tessera::explore
