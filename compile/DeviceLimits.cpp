#include "compile/DeviceLimits.h"

#include <algorithm>

#include "runtime/DeviceTarget.h"

namespace tessera::explore {

namespace {

// On a CPU (PoCL) a work-item's inner loop is what the compiler vectorises: coarsening by the
// vector width (16 floats with AVX-512) and twice it gives loops of whole vectors, where factors
// of 2 and 4 give a quarter vector at most.
void add_cpu_coarsening(rewrite::EnumerateOptions& options) {
  for (int64_t factor : {8, 16, 32})
    if (std::find(options.coarsening.begin(), options.coarsening.end(), factor) ==
        options.coarsening.end())
      options.coarsening.push_back(factor);
}

} // namespace

void apply_device_limits(rewrite::EnumerateOptions& options, const runtime::Device& device) {
  options.target = runtime::target_of(device);
  if (options.target.cpu())
    add_cpu_coarsening(options);
}

void apply_device_limits(rewrite::EnumerateOptions& options,
                         const std::vector<runtime::Device>& devices) {
  if (devices.empty())
    return;
  apply_device_limits(options, devices.front());
  for (const auto& d : devices)
    options.target = common_target(options.target, runtime::target_of(d));
}

} // namespace tessera::explore
