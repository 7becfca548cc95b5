// How the explorer times a problem given the size of one sweep and of the device's last-level
// cache. When a sweep is larger than the cache but not far larger, what a launch finds in the
// cache depends on what ran just before it (its check read the same data; a finalist re-timed in
// turn with others does not), so every timed launch is preceded by a flush of the cache: the
// search, the finalists' confirmation and the plot then time every point in the same state. A
// sweep that fits is wholly in the cache after the warm-up launch whatever ran before: no flush.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace tessera::explore {

// A sweep of at least this many times the cache streams from memory whatever ran before it:
// no flush.
inline constexpr double kFarLargerThanCache = 4.0;
// The flush writes this many times the cache (replacement is not exact LRU).
inline constexpr double kFlushCacheFactor = 2.0;

struct CacheRegime {
  std::size_t flush_bytes = 0; // written before every timed launch; 0: no flush
  // For the report and the printed summary: how the times relate to the cache (empty when a
  // sweep is far larger than the cache, or the cache size is unknown).
  std::string note;
};

// `footprint_bytes`: every input and the output of one sweep; `cache_bytes`: the last-level
// cache (0: unknown: no flush); `max_alloc_bytes`: the largest buffer the device allocates.
// `upper_bound`: the cache size is only an upper bound of what a core's data sits in (the C
// library's figure, runtime/CacheSize.h): a sweep larger than it is not flushed for, since a
// flush of twice the bound can cost more than the launch (a second before each launch of the
// README's exploration on a virtual machine whose figure is its host's whole L3).
CacheRegime cache_regime(double footprint_bytes, uint64_t cache_bytes, uint64_t max_alloc_bytes,
                         bool upper_bound = false);

} // namespace tessera::explore
