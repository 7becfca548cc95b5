// The values of a distributed sweep's grid on the host: the initial grid as a pure function of
// the global index and the seed (so every decomposition starts from the same data), and the
// element conversions and per-point loops the initial values, the checksum and the gather share.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/Type.h"
#include "distributed/BlockGrid.h"

namespace tessera::distributed {

// splitmix64's finaliser: the hash of the initial values and of the checksum.
uint64_t mix(uint64_t x);

// One element of `kind` written to / read from raw bytes, through a double.
void store(ScalarKind kind, double value, unsigned char* out);
double load(ScalarKind kind, const unsigned char* in);

// The initial value at a global linear index (floating kinds: [-1, 1); integers: 0 or 1).
double initial_value(uint64_t index, uint32_t seed, ScalarKind kind);

// Calls f(local linear index, global linear index) for every point of the block, in order.
template <class F> void for_each_point(const Block& b, const std::vector<int64_t>& global, F f) {
  const std::size_t dims = b.extent.size();
  std::vector<int64_t> i(dims, 0);
  for (int64_t local = 0; local < b.points(); ++local) {
    uint64_t g = 0;
    for (std::size_t d = 0; d < dims; ++d)
      g = g * static_cast<uint64_t>(global[d]) + static_cast<uint64_t>(b.offset[d] + i[d]);
    f(local, g);
    for (int d = static_cast<int>(dims) - 1; d >= 0; --d) {
      if (++i[d] < b.extent[d])
        break;
      i[d] = 0;
    }
  }
}

// The block's points split over the host's cores by outermost rows (the initial values and the
// checksum of a 2^30-point block took 16 s on one core): f(thread, local, global) runs on
// several threads; `thread` indexes per-thread state, below kMaxThreads.
constexpr unsigned kMaxThreads = 64;
void parallel_for_each_point(
    const Block& b, const std::vector<int64_t>& global,
    const std::function<void(unsigned thread, int64_t local, uint64_t global)>& f);

} // namespace tessera::distributed
