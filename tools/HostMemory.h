// How much host memory this process may use, for the commands that check a problem's size
// before they allocate it (`run`, `solve`).
#pragma once

#include <string>

namespace tessera::tools {

// In bytes: MemAvailable of /proc/meminfo, less when the address space (ulimit -v) or the cgroup
// (a container's memory.max) allows less; 0 when unknown.
double available_memory();

// The largest resident set this process has had so far, in bytes (getrusage's ru_maxrss).
double peak_resident_bytes();

// "12.3 GB" (decimal gigabytes, one decimal).
std::string gigabytes(double bytes);

} // namespace tessera::tools
