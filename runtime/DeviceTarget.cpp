#include "runtime/DeviceTarget.h"

#include <algorithm>

namespace tessera::runtime {

namespace {

DeviceKind kind_of(const Device& device) {
  if (device.type == "CPU")
    return DeviceKind::CPU;
  if (device.type == "GPU")
    return DeviceKind::GPU;
  return DeviceKind::Other;
}

ImageLimits images_of(const Device& device) {
  ImageLimits images;
  images.supported = device.image_support;
  images.width_2d = static_cast<int64_t>(device.image2d_max_width);
  images.height_2d = static_cast<int64_t>(device.image2d_max_height);
  images.width_3d = static_cast<int64_t>(device.image3d_max_width);
  images.height_3d = static_cast<int64_t>(device.image3d_max_height);
  images.depth_3d = static_cast<int64_t>(device.image3d_max_depth);
  return images;
}

} // namespace

Target target_of(const Device& device) {
  Target target;
  target.kind = kind_of(device);
  target.pocl = device.is_pocl();
  target.max_work_group_size = static_cast<int64_t>(device.max_work_group_size);
  for (std::size_t d = 0; d < target.max_work_item_sizes.size(); ++d)
    if (d < device.max_work_item_sizes.size())
      target.max_work_item_sizes[d] = static_cast<int64_t>(device.max_work_item_sizes[d]);
  target.local_memory_bytes = static_cast<int64_t>(device.local_mem_size);
  target.stream_local_bytes = std::min(target.stream_local_bytes, target.local_memory_bytes);
  target.max_constant_bytes = static_cast<int64_t>(device.max_constant_buffer_size);
  target.max_constant_args = static_cast<int>(device.max_constant_args);
  target.images = images_of(device);
  return target;
}

} // namespace tessera::runtime
