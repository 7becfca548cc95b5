#include "runtime/RooflineFile.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "runtime/BuildCache.h"
#include "runtime/CacheSize.h"
#include "runtime/Session.h"

namespace tessera::runtime {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "tessera-roofline";
// 2: copy kernels timed at several work-group sizes (a version 1 roofline could be too low).
constexpr int kVersion = 2;

// The file's JSON, or an empty document when it is missing or not a roofline file.
json read_document(const fs::path& file) {
  std::ifstream in(file);
  if (!in)
    return json::object();
  std::stringstream text;
  text << in.rdbuf();
  json doc = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object() || doc.value("format", "") != kFormat ||
      doc.value("version", 0) != kVersion || !doc.contains("devices") ||
      !doc["devices"].is_object())
    return json::object();
  return doc;
}

json to_json(const Roofline& r) {
  return {{"gb_per_s", r.gb_per_s},
          {"method", r.method},
          {"methods", r.methods},
          {"buffer_bytes", r.buffer_bytes},
          {"target_bytes", r.target_bytes},
          {"cache_bytes", r.cache_bytes},
          {"cache_source", r.cache_source},
          {"limited_by", r.limited_by},
          {"measured_at", r.measured_at},
          {"f32_gflops", r.compute.f32_gflops},
          {"f64_gflops", r.compute.f64_gflops}};
}

// store_roofline, where there is a file; an unwritable cache only costs measuring again next
// time.
void store_quietly(const fs::path& file, const std::string& identity, const Roofline& r);

} // namespace

RooflineOptions roofline_options_from_env() {
  RooflineOptions options;
  auto dir = default_cache_dir();
  if (!dir.empty())
    options.file = dir / "roofline.json";
  if (const char* env = std::getenv("TESSERA_REMEASURE_ROOFLINE"))
    options.remeasure = std::string(env) == "1";
  if (const char* env = std::getenv("TESSERA_ROOFLINE_BYTES"); env && *env) {
    auto bytes = parse_cache_size(env);
    if (!bytes)
      user_error(cat("TESSERA_ROOFLINE_BYTES must be a positive number of bytes (e.g. 67108864 ",
                     "or 64M), got '", env, "'"));
    options.max_bytes = *bytes;
  }
  return options;
}

std::optional<Roofline> read_roofline(const fs::path& file, const std::string& identity,
                                      std::size_t buffer_bytes) {
  json doc = read_document(file);
  if (!doc.contains("devices") || !doc["devices"].contains(identity))
    return std::nullopt;
  try {
    const json& e = doc["devices"][identity];
    Roofline r;
    r.gb_per_s = e.at("gb_per_s").get<double>();
    r.method = e.at("method").get<std::string>();
    r.methods = e.at("methods").get<std::map<std::string, double>>();
    r.buffer_bytes = e.at("buffer_bytes").get<std::size_t>();
    r.target_bytes = e.value("target_bytes", r.buffer_bytes); // files before it: the same
    r.cache_bytes = e.at("cache_bytes").get<uint64_t>();
    r.cache_source = e.at("cache_source").get<std::string>();
    r.limited_by = e.at("limited_by").get<std::string>();
    r.measured_at = e.at("measured_at").get<std::string>();
    // Entries written before the compute peak have none: it is measured and added.
    r.compute.f32_gflops = e.value("f32_gflops", 0.0);
    r.compute.f64_gflops = e.value("f64_gflops", 0.0);
    r.from_file = true;
    // Larger buffers measure the roofline at least as honestly; an entry whose buffers the
    // device's memory limits cut (PoCL's follow the free memory) counts by the size it asked for.
    if (static_cast<double>(std::max(r.buffer_bytes, r.target_bytes)) <
            0.9 * static_cast<double>(buffer_bytes) ||
        !(r.gb_per_s > 0))
      return std::nullopt;
    return r;
  } catch (const json::exception&) {
    return std::nullopt; // a malformed entry is measured again
  }
}

void store_roofline(const fs::path& file, const std::string& identity, const Roofline& roofline) {
  json doc = read_document(file);
  doc["format"] = kFormat;
  doc["version"] = kVersion;
  doc["devices"][identity] = to_json(roofline);
  std::error_code ec;
  if (file.has_parent_path())
    fs::create_directories(file.parent_path(), ec);
  write_file_atomically(file.string(), doc.dump(2) + "\n");
}

namespace {
void store_quietly(const fs::path& file, const std::string& identity, const Roofline& r) {
  if (file.empty())
    return;
  try {
    store_roofline(file, identity, r);
  } catch (const Error&) {
    // the next run measures again
  }
}
} // namespace

Roofline device_roofline(Session& session, const RooflineOptions& options) {
  const Device& device = session.device();
  CacheSize cache = last_level_cache(device);
  std::string limited_by;
  std::size_t target = roofline_target_bytes(device, cache.bytes, options.max_bytes);
  auto start = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  if (!options.remeasure && !options.file.empty())
    if (auto stored = read_roofline(options.file, device.identity(), target);
        stored && stored->cache_bytes == cache.bytes) {
      if (stored->compute.f32_gflops > 0)
        return *stored;
      stored->compute = measure_compute_peak(session, options.timing);
      stored->measure_s = seconds();
      store_quietly(options.file, device.identity(), *stored);
      return *stored;
    }
  std::size_t bytes = roofline_buffer_bytes(device, cache.bytes, &limited_by, options.max_bytes);
  Roofline r = measure_roofline(session, bytes, options.timing);
  r.compute = measure_compute_peak(session, options.timing);
  r.measure_s = seconds();
  r.target_bytes = target;
  r.cache_bytes = cache.bytes;
  r.cache_source = cache.source;
  r.limited_by = limited_by;
  store_quietly(options.file, device.identity(), r);
  return r;
}

} // namespace tessera::runtime
