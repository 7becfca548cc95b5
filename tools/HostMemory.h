// How much host memory this process may use, for the commands that check a problem's size
// before they allocate it (`run`, `solve`).
#pragma once

#include <string>

namespace tessera::tools {

// In bytes: MemAvailable of /proc/meminfo, less when the address space (ulimit -v) or the cgroup
// (a container's memory.max) allows less; 0 when unknown.
double available_memory();

// Error unless `needed` bytes of host memory fit in 80% of available_memory() (the rest is the
// process's own and the system's; nothing is checked when that is unknown): "SUBJECT needs about
// N of host memory DETAIL, more than the U it can use (A available to this process): REMEDY".
void require_host_memory(double needed, const std::string& subject, const std::string& detail,
                         const std::string& remedy);

// The largest resident set this process has had so far, in bytes (getrusage's ru_maxrss).
double peak_resident_bytes();

// "12.3 GB" (decimal gigabytes, one decimal).
std::string gigabytes(double bytes);

} // namespace tessera::tools
