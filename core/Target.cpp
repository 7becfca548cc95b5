#include "core/Target.h"

#include <algorithm>

namespace tessera {

namespace {

ImageLimits common_images(const ImageLimits& a, const ImageLimits& b) {
  ImageLimits c;
  c.supported = a.supported && b.supported;
  c.width_2d = std::min(a.width_2d, b.width_2d);
  c.height_2d = std::min(a.height_2d, b.height_2d);
  c.width_3d = std::min(a.width_3d, b.width_3d);
  c.height_3d = std::min(a.height_3d, b.height_3d);
  c.depth_3d = std::min(a.depth_3d, b.depth_3d);
  return c;
}

} // namespace

Target common_target(const Target& a, const Target& b) {
  Target c;
  c.kind = a.kind == b.kind ? a.kind : DeviceKind::Other;
  c.pocl = a.pocl && b.pocl;
  c.max_work_group_size = std::min(a.max_work_group_size, b.max_work_group_size);
  for (std::size_t d = 0; d < c.max_work_item_sizes.size(); ++d)
    c.max_work_item_sizes[d] = std::min(a.max_work_item_sizes[d], b.max_work_item_sizes[d]);
  c.local_memory_bytes = std::min(a.local_memory_bytes, b.local_memory_bytes);
  c.stream_local_bytes = std::min(a.stream_local_bytes, b.stream_local_bytes);
  c.max_constant_bytes = std::min(a.max_constant_bytes, b.max_constant_bytes);
  c.max_constant_args = std::min(a.max_constant_args, b.max_constant_args);
  c.images = common_images(a.images, b.images);
  c.registers_per_group = std::min(a.registers_per_group, b.registers_per_group);
  c.max_private_bytes_per_group =
      std::min(a.max_private_bytes_per_group, b.max_private_bytes_per_group);
  c.register_window_values = std::min(a.register_window_values, b.register_window_values);
  c.max_private_elements = std::min(a.max_private_elements, b.max_private_elements);
  return c;
}

} // namespace tessera
