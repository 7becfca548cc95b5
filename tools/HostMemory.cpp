#include "tools/HostMemory.h"

#include <fstream>
#include <sys/resource.h>

#include "core/Error.h"

namespace tessera::tools {

double peak_resident_bytes() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0)
    return 0;
  return static_cast<double>(usage.ru_maxrss) * 1024; // kilobytes on Linux
}

double available_memory() {
  double available = 0;
  std::ifstream meminfo("/proc/meminfo");
  std::string key, unit;
  double kb = 0;
  while (meminfo >> key >> kb >> unit)
    if (key == "MemAvailable:")
      available = kb * 1024;
  auto lower = [&](double limit) {
    if (limit > 0 && (available == 0 || limit < available))
      available = limit;
  };
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    lower(static_cast<double>(as.rlim_cur));
  std::ifstream cgroup("/sys/fs/cgroup/memory.max");
  double cgroup_max = 0;
  if (cgroup >> cgroup_max)
    lower(cgroup_max);
  return available;
}

void require_host_memory(double needed, const std::string& subject, const std::string& detail,
                         const std::string& remedy) {
  const double available = available_memory();
  if (available > 0 && needed > 0.8 * available)
    user_error(cat(subject, " needs about ", gigabytes(needed), " of host memory", detail,
                   ", more than the ", gigabytes(0.8 * available), " it can use (",
                   gigabytes(available), " available to this process): ", remedy));
}

std::string gigabytes(double bytes) {
  return cat(static_cast<double>(static_cast<int64_t>(bytes / 1e8)) / 10, " GB");
}

} // namespace tessera::tools
