#include "explore/CacheRegime.h"

#include <algorithm>
#include <cmath>

#include "core/Bytes.h"
#include "core/Error.h"

namespace tessera::explore {

CacheRegime cache_regime(double footprint_bytes, uint64_t cache_bytes, uint64_t max_alloc_bytes,
                         bool upper_bound) {
  const double cache = static_cast<double>(cache_bytes);
  if (cache_bytes == 0 || footprint_bytes >= kFarLargerThanCache * cache)
    return {};
  CacheRegime r;
  const std::string sweep = format_bytes(static_cast<uint64_t>(footprint_bytes));
  if (footprint_bytes <= cache) {
    // The warm-up launch brings the whole grid into the cache whatever ran before: every point
    // is timed in the same state without a flush.
    r.note = cat("the grid fits in the last-level cache (one sweep moves ", sweep, ", the cache ",
                 "holds ", format_bytes(cache_bytes), "): every point is timed after a warm-up ",
                 "launch, its data in the cache: times are cache times, not DRAM");
    return r;
  }
  if (upper_bound) {
    r.note = cat("one sweep moves ", sweep, ", ", std::round(10 * footprint_bytes / cache) / 10,
                 "x the ", format_bytes(cache_bytes),
                 " that the C library gives as the last-level cache, an upper bound (on a virtual ",
                 "machine possibly its host's whole L3): no flush; part of a sweep may be served ",
                 "from the cache");
    return r;
  }
  r.flush_bytes = static_cast<std::size_t>(
      std::min<double>(kFlushCacheFactor * cache, static_cast<double>(max_alloc_bytes)));
  r.note =
      cat("the grid nearly fits in the last-level cache (one sweep moves ", sweep, ", ",
          std::round(10 * footprint_bytes / cache) / 10, "x the ", format_bytes(cache_bytes),
          " cache): every timed launch follows a flush of the cache (a write of ",
          format_bytes(r.flush_bytes), r.flush_bytes < cache_bytes ? ", less than the cache" : "",
          "), in the search and in the finalists' confirmation alike, yet part of a sweep is "
          "served from the cache: times are partly cache times, not DRAM");
  return r;
}

} // namespace tessera::explore
