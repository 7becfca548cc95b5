// The roofline measured once per device and kept on disk: a JSON file (nlohmann/json)
//   {"format": "tessera-roofline", "version": 1,
//    "devices": {"<Device::identity()>": {"gb_per_s", "method", "methods", "buffer_bytes",
//                                         "cache_bytes", "cache_source", "limited_by",
//                                         "measured_at", "f32_gflops", "f64_gflops"}}}
// (the compute peak, ComputePeak.h: an entry without it has it measured and added)
// by default roofline.json in the build-cache directory (default_cache_dir()). It is a cache:
// written atomically, safe to delete, and an unreadable or malformed file or entry is measured
// again and overwritten. An entry is reused only for the same device identity (platform,
// device, driver version) and buffers (or, where the device's memory cut them, a size asked
// for) of at least 90% of the size asked for (roofline_target_bytes: it follows the cache alone).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "runtime/Roofline.h"

namespace tessera::runtime {

class Session;

struct RooflineOptions {
  bool remeasure = false;          // measure even when the file has an entry (then replace it)
  std::filesystem::path file;      // empty: no file, measure every time
  uint64_t max_bytes = UINT64_MAX; // cap on the buffer size (quick runs and tests)
  TimingOptions timing{1, 3};
};

// default_cache_dir()/roofline.json (empty when the disk cache is off), remeasure from
// TESSERA_REMEASURE_ROOFLINE=1 and max_bytes from TESSERA_ROOFLINE_BYTES (Error when that is not
// a positive number of bytes).
RooflineOptions roofline_options_from_env();

// The entry of `identity` measured with buffers (or asking for buffers) of at least 90% of
// buffer_bytes; nullopt when
// there is none or the file or the entry is unreadable.
std::optional<Roofline> read_roofline(const std::filesystem::path& file,
                                      const std::string& identity, std::size_t buffer_bytes);

// Adds or replaces the entry of `identity`, keeping the others (atomic write). Error when the
// file cannot be written.
void store_roofline(const std::filesystem::path& file, const std::string& identity,
                    const Roofline& roofline);

// The session's device's roofline: from the file when it has an entry for this device and
// buffer size (and !remeasure), else measured and stored. A file that cannot be written costs a
// re-measurement next time, nothing else.
Roofline device_roofline(Session& session, const RooflineOptions& options);

} // namespace tessera::runtime
