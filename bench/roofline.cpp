// The device's copy roofline (runtime/Roofline.h) measured afresh: every method at
// several buffer sizes, to show where the last-level cache stops inflating a copy, then the
// roofline as the explorer keeps it (8x the cache), written to the roofline file.
//
//   ./build/bench/roofline [--device SPEC] [--sizes-mib 64,256,1024] [--repeats 5]
#include <cstdio>
#include <string>
#include <vector>

#include "core/Bytes.h"
#include "core/Error.h"
#include "options/BenchArgs.h"
#include "runtime/CacheSize.h"
#include "runtime/Device.h"
#include "runtime/Roofline.h"
#include "runtime/RooflineFile.h"
#include "runtime/Session.h"

using namespace tessera;

int main(int argc, char** argv) try {
  bench::SizeSweepArgs args{"", {64, 256, 1024}, 5};
  if (!bench::parse_size_sweep_args(argc, argv, args))
    user_error("usage: roofline [--device SPEC] [--sizes-mib 64,256,1024] [--repeats 5] "
               "(repeats at least 1)");
  const int repeats = args.repeats;
  auto session = runtime::Session::from_env(args.device);
  const auto& d = session.device();
  auto cache = runtime::last_level_cache(d);
  std::printf("device: %s\nlast-level cache %s (%s)\n", d.description().c_str(),
              tessera::format_bytes(cache.bytes).c_str(), cache.source.c_str());
  for (uint64_t mib : args.sizes_mib) {
    std::string why;
    // mib, within what the device can allocate
    std::size_t bytes = runtime::roofline_buffer_bytes(d, (mib << 20) / 8, &why, mib << 20);
    auto r = runtime::measure_roofline(session, bytes, {1, repeats});
    std::printf("  buffers of %-9s (%5.1fx the cache):", tessera::format_bytes(bytes).c_str(),
                cache.bytes ? double(bytes) / double(cache.bytes) : 0.0);
    for (const auto& [method, gbps] : r.methods)
      std::printf("  %s %.1f GB/s", method.c_str(), gbps);
    std::printf("\n");
  }
  auto options = runtime::roofline_options_from_env();
  options.remeasure = true;
  options.timing = {1, repeats};
  auto r = runtime::device_roofline(session, options);
  std::printf("roofline: %.1f GB/s (%s, buffers of %s%s%s), written to %s\n", r.gb_per_s,
              r.method.c_str(), tessera::format_bytes(r.buffer_bytes).c_str(),
              r.limited_by.empty() ? "" : "; ", r.limited_by.c_str(),
              options.file.empty() ? "(no file: TESSERA_CACHE_DIR=off)" : options.file.c_str());
  return 0;
} catch (const tessera::Error& e) {
  std::fprintf(stderr, "error: %s\n", e.what());
  return 2;
}
