#include "compile/DeviceLimits.h"

#include <algorithm>

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
  if (device.type == "CPU")
    add_cpu_coarsening(options);
  options.max_constant_bytes = static_cast<int64_t>(device.max_constant_buffer_size);
  options.max_constant_args = static_cast<int>(device.max_constant_args);
  rewrite::ImageLimits& images = options.images;
  images.supported = device.image_support;
  images.width_2d = static_cast<int64_t>(device.image2d_max_width);
  images.height_2d = static_cast<int64_t>(device.image2d_max_height);
  images.width_3d = static_cast<int64_t>(device.image3d_max_width);
  images.height_3d = static_cast<int64_t>(device.image3d_max_height);
  images.depth_3d = static_cast<int64_t>(device.image3d_max_depth);
}

void apply_device_limits(rewrite::EnumerateOptions& options,
                         const std::vector<runtime::Device>& devices) {
  if (devices.empty())
    return;
  apply_device_limits(options, devices.front());
  for (const auto& d : devices) {
    rewrite::EnumerateOptions one;
    apply_device_limits(one, d);
    options.max_constant_bytes = std::min(options.max_constant_bytes, one.max_constant_bytes);
    options.max_constant_args = std::min(options.max_constant_args, one.max_constant_args);
    rewrite::ImageLimits& a = options.images;
    const rewrite::ImageLimits& b = one.images;
    a.supported = a.supported && b.supported;
    a.width_2d = std::min(a.width_2d, b.width_2d);
    a.height_2d = std::min(a.height_2d, b.height_2d);
    a.width_3d = std::min(a.width_3d, b.width_3d);
    a.height_3d = std::min(a.height_3d, b.height_3d);
    a.depth_3d = std::min(a.depth_3d, b.depth_3d);
  }
}

} // namespace tessera::explore
