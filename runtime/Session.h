// A session on one OpenCL device: its context, an in-order command queue with profiling
// enabled, and the program build cache.
#pragma once

#include <memory>
#include <string>

#include "runtime/BuildCache.h"
#include "runtime/Device.h"
#include "runtime/Kernel.h"
#include "runtime/OpenCL.h"

namespace tessera::runtime {

class Session {
public:
  // Uses the on-disk cache directory default_cache_dir() (TESSERA_CACHE_DIR, ...).
  explicit Session(Device device);
  Session(Device device, const std::filesystem::path& cache_dir);
  // The device named by spec, or by TESSERA_DEVICE when spec is empty (see Device.h).
  static Session from_env(const std::string& spec = "");

  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  ~Session();

  const Device& device() const { return device_; }
  const cl::Context& context() const { return context_; }
  cl::CommandQueue& queue() { return queue_; }
  BuildCache& cache() { return *cache_; }

  // Builds (or takes from the cache) the program of source and returns its kernel kernel_name.
  Kernel build_kernel(const std::string& source, const std::string& kernel_name,
                      const std::string& options = "");

  // Waits for all commands of the queue.
  void finish();

private:
  Device device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::unique_ptr<BuildCache> cache_;
};

} // namespace tessera::runtime
