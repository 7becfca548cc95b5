// When the explorer flushes the cache before timed launches, and what it says about the times.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "explore/CacheRegime.h"
#include "explore/Report.h"
#include "runtime/CacheSize.h"
#include "runtime/Timing.h"

using namespace tessera::explore;

namespace {
constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kNoAllocLimit = uint64_t{1} << 40;
} // namespace

TEST_CASE("cache regime: a grid far larger than the cache is timed without a flush") {
  CacheRegime r = cache_regime(512.0 * kMiB, 32 * kMiB, kNoAllocLimit);
  CHECK(r.flush_bytes == 0);
  CHECK(r.note.empty());
  // At exactly 4x the cache a sweep streams from memory.
  CHECK(cache_regime(128.0 * kMiB, 32 * kMiB, kNoAllocLimit).flush_bytes == 0);
}

TEST_CASE("cache regime: a grid that nearly fits is flushed before every timed launch") {
  // The machine: 480 MiB of L3, one sweep of 8192^2 moves 512 MiB.
  CacheRegime r = cache_regime(512.0 * kMiB, 480 * kMiB, kNoAllocLimit);
  CHECK(r.flush_bytes == 960 * kMiB);
  CHECK(r.note.find("nearly fits in the last-level cache") != std::string::npos);
  CHECK(r.note.find("1.1x") != std::string::npos);
  CHECK(r.note.find("not DRAM") != std::string::npos);
  // Just under 4x still nearly fits.
  CHECK(cache_regime(127.0 * kMiB, 32 * kMiB, kNoAllocLimit).flush_bytes == 64 * kMiB);
}

TEST_CASE("cache regime: a grid that fits is timed warm, without a flush, and says so") {
  CacheRegime r = cache_regime(0.5 * kMiB, 32 * kMiB, kNoAllocLimit);
  CHECK(r.flush_bytes == 0);
  CHECK(cache_regime(32.0 * kMiB, 32 * kMiB, kNoAllocLimit).flush_bytes == 0);
  CHECK(r.note.find("the grid fits in the last-level cache") != std::string::npos);
  CHECK(r.note.find("times are cache times, not DRAM") != std::string::npos);
}

TEST_CASE("cache regime: unknown cache, and a device that cannot allocate twice the cache") {
  CHECK(cache_regime(1.0 * kMiB, 0, kNoAllocLimit).flush_bytes == 0);
  CHECK(cache_regime(1.0 * kMiB, 0, kNoAllocLimit).note.empty());
  CacheRegime r = cache_regime(40.0 * kMiB, 32 * kMiB, 16 * kMiB);
  CHECK(r.flush_bytes == 16 * kMiB);
  CHECK(r.note.find("less than the cache") != std::string::npos);
}

TEST_CASE("timing: the flush runs before each timed launch, not before the warm-up") {
  std::vector<std::string> events;
  tessera::runtime::TimingOptions options{2, 3, [&] { events.push_back("flush"); }};
  auto t = tessera::runtime::time_repetitions(
      [&] {
        events.push_back("launch");
        return 1.0;
      },
      options, "test");
  CHECK(t.samples_ms.size() == 3);
  CHECK(events == std::vector<std::string>{"launch", "launch", "flush", "launch", "flush", "launch",
                                           "flush", "launch"});
}

TEST_CASE("report: the timing regime is printed and round-trips; old reports have none") {
  Report r;
  r.stencil = "jacobi2d";
  r.size = {256, 256};
  r.device_name = "cpu";
  r.timing_regime = cache_regime(0.5 * kMiB, 32 * kMiB, kNoAllocLimit).note;
  CHECK(format_report(r).find("timing: the grid fits") != std::string::npos);
  auto json = report_to_json(r);
  CHECK(report_from_json(json).timing_regime == r.timing_regime);
  json.erase("timing_regime");
  CHECK(report_from_json(json).timing_regime.empty());
  r.timing_regime.clear();
  CHECK(format_report(r).find("timing:") == std::string::npos);
}

TEST_CASE(
    "cache regime: a size that is only an upper bound (the C library's) is never flushed for") {
  // This VM's C library says 508 MiB; the README's exploration moves 512 MiB a sweep.
  const uint64_t figure = 508 * kMiB;
  CacheRegime exact = cache_regime(512.0 * kMiB, figure, kNoAllocLimit);
  CHECK(exact.flush_bytes == 2 * figure);
  CacheRegime bound = cache_regime(512.0 * kMiB, figure, kNoAllocLimit, true);
  CHECK(bound.flush_bytes == 0);
  CHECK(bound.note.find("an upper bound") != std::string::npos);
  CHECK(bound.note.find("no flush") != std::string::npos);
  // A sweep within the bound fits either way; one far beyond it needs no note.
  CHECK(cache_regime(kMiB, figure, kNoAllocLimit, true).note.find("fits") != std::string::npos);
  CHECK(cache_regime(4096.0 * kMiB, figure, kNoAllocLimit, true).note.empty());
  CHECK(runtime::cache_size_is_upper_bound("the C library (sysconf _SC_LEVEL3_CACHE_SIZE)"));
  CHECK_FALSE(runtime::cache_size_is_upper_bound("/sys/devices/system/cpu/cpu0/cache"));
}
