#include "runtime/CacheSize.h"

#include <cctype>
#include <cstdlib>
#include <fstream>
#include <system_error>
#include <unistd.h>

#include "core/Error.h"
#include "runtime/Device.h"
#include "runtime/DeviceTarget.h"

namespace tessera::runtime {

namespace fs = std::filesystem;

std::optional<uint64_t> parse_cache_size(const std::string& text) {
  std::size_t end = text.find_last_not_of(" \t\r\n");
  if (end == std::string::npos)
    return std::nullopt;
  std::string t = text.substr(0, end + 1);
  uint64_t scale = 1;
  char last = static_cast<char>(std::toupper(static_cast<unsigned char>(t.back())));
  if (last == 'K' || last == 'M' || last == 'G') {
    scale = last == 'K' ? uint64_t{1} << 10 : last == 'M' ? uint64_t{1} << 20 : uint64_t{1} << 30;
    t.pop_back();
  }
  if (t.empty() || t.size() > 15)
    return std::nullopt;
  for (char c : t)
    if (!std::isdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
  uint64_t value = std::stoull(t) * scale;
  if (value == 0)
    return std::nullopt;
  return value;
}

std::optional<uint64_t> system_last_level_cache(const fs::path& cache_dir) {
  std::error_code ec;
  std::optional<uint64_t> largest;
  for (fs::directory_iterator it(cache_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename().string().rfind("index", 0) != 0)
      continue;
    std::string type, size;
    std::ifstream(it->path() / "type") >> type;
    if (type == "Instruction")
      continue;
    std::getline(std::ifstream(it->path() / "size") >> std::ws, size);
    if (auto bytes = parse_cache_size(size); bytes && (!largest || *bytes > *largest))
      largest = bytes;
  }
  return largest;
}

namespace {

// glibc's view of the largest cache (from CPUID on x86): for machines whose /sys lists no
// caches (some virtual machines); nullopt where the C library does not say.
std::optional<uint64_t> libc_last_level_cache() {
#if defined(_SC_LEVEL3_CACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE)
  for (int name : {_SC_LEVEL3_CACHE_SIZE, _SC_LEVEL2_CACHE_SIZE})
    if (long bytes = ::sysconf(name); bytes > 0)
      return static_cast<uint64_t>(bytes);
#endif
  return std::nullopt;
}

constexpr const char* kLibcSource = "the C library (sysconf _SC_LEVEL3_CACHE_SIZE)";

} // namespace

bool cache_size_is_upper_bound(const std::string& source) {
  return source == kLibcSource;
}

CacheSize last_level_cache(const Device& device) {
  if (const char* env = std::getenv("TESSERA_CACHE_BYTES"); env && *env) {
    auto bytes = parse_cache_size(env);
    if (!bytes)
      user_error(cat("TESSERA_CACHE_BYTES must be a positive number of bytes (e.g. 33554432, ",
                     "32768K or 32M), got '", env, "'"));
    return {*bytes, "TESSERA_CACHE_BYTES"};
  }
  CacheSize size{device.global_mem_cache_size,
                 "the OpenCL device (CL_DEVICE_GLOBAL_MEM_CACHE_SIZE)"};
  if (!target_of(device).cpu())
    return size;
  if (auto sys = system_last_level_cache()) {
    if (*sys > size.bytes)
      size = {*sys, "/sys/devices/system/cpu/cpu0/cache"};
  } else if (auto libc = libc_last_level_cache(); libc && *libc > size.bytes) {
    size = {*libc, kLibcSource};
  }
  return size;
}

} // namespace tessera::runtime
