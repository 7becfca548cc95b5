// The size of a device's last-level cache: what decides whether a problem's data stays in the
// cache between sweeps (and so whether the DRAM copy bandwidth bounds it at all).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace tessera::runtime {

struct Device;

struct CacheSize {
  uint64_t bytes = 0; // 0 when neither the driver nor the system says
  std::string source; // where the number comes from, for reports
};

// The source of a size that the C library gave (glibc's sysconf, where /sys lists no caches):
// only an upper bound of the cache a core's data sits in. On this project's virtual machine it
// is 508 MiB for 2 vCPUs of an AMD EPYC, whose cores share 32 MiB a core complex: the host's
// whole L3, it seems.
bool cache_size_is_upper_bound(const std::string& source);

// "491520K" -> 503316480, "32M" -> 33554432, "512" -> 512 (the forms of
// /sys/devices/system/cpu/cpuN/cache/indexM/size); nullopt for anything else.
std::optional<uint64_t> parse_cache_size(const std::string& text);

// The largest data or unified cache listed under `cache_dir` (default: CPU 0's caches in /sys),
// i.e. the last level; nullopt when the directory lists none.
std::optional<uint64_t> system_last_level_cache(
    const std::filesystem::path& cache_dir = "/sys/devices/system/cpu/cpu0/cache");

// The device's last-level cache: the larger of CL_DEVICE_GLOBAL_MEM_CACHE_SIZE and, for a CPU
// device, the system's last-level cache (from /sys, or the C library's where /sys lists none).
// TESSERA_CACHE_BYTES overrides both (a virtual machine may report its host's cache); Error when it
// is not a positive number of bytes.
CacheSize last_level_cache(const Device& device);

} // namespace tessera::runtime
