#include "runtime/Session.h"

#include "core/Error.h"
#include "runtime/ClError.h"

namespace tessera::runtime {

Session::Session(Device device) : Session(std::move(device), default_cache_dir()) {}

Session::Session(Device device, const std::filesystem::path& cache_dir)
    : device_(std::move(device)) {
  cl_int err = CL_SUCCESS;
  context_ = cl::Context(device_.device, nullptr, nullptr, nullptr, &err);
  check_cl(err, cat("creating an OpenCL context on ", device_.name));
  queue_ = cl::CommandQueue(context_, device_.device, CL_QUEUE_PROFILING_ENABLE, &err);
  check_cl(err, cat("creating a profiling command queue on ", device_.name));
  cache_ = std::make_unique<BuildCache>(device_, context_, cache_dir);
}

Session Session::from_env(const std::string& spec) {
  return Session(select_device_from_env(spec));
}

Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

Kernel Session::build_kernel(const std::string& source, const std::string& kernel_name,
                             const std::string& options) {
  return cache_->build_kernel(source, kernel_name, options);
}

void Session::finish() {
  check_cl(queue_.finish(), cat("waiting for the queue of ", device_.name));
}

} // namespace tessera::runtime
