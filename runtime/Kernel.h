// A built kernel: the cl::Kernel with its program, its name and where the build came from.
#pragma once

#include <cstdint>
#include <string>

#include "runtime/OpenCL.h"

namespace tessera::runtime {

enum class BuildOrigin {
  Compiled,    // built from source in this call
  MemoryCache, // program found in the in-memory cache
  DiskCache,   // program loaded from a binary in the on-disk cache
};

const char* to_string(BuildOrigin origin);

struct Kernel {
  cl::Kernel kernel;
  cl::Program program;
  std::string name;
  uint64_t source_hash = 0; // FNV-1a of the source text alone
  uint64_t program_key = 0; // the build-cache key (source, device, driver, options)
  BuildOrigin origin = BuildOrigin::Compiled;
  double build_ms = 0.0; // wall time spent in this build_kernel call
};

} // namespace tessera::runtime
