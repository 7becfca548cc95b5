#include "runtime/Image.h"

#include "core/Error.h"
#include "runtime/ClError.h"
#include "runtime/Session.h"

namespace tessera::runtime {

Image::Image(Session& session, const std::vector<int64_t>& shape, std::span<const float> host) {
  const Device& d = session.device();
  if (!d.image_support)
    user_error(cat("the device ", d.name,
                   " has no image support (CL_DEVICE_IMAGE_SUPPORT): an "
                   "input placed as an image cannot run there"));
  if (shape.size() < 2 || shape.size() > 3)
    user_error(cat("an image holds a 2-D or 3-D array, not ", shape.size(), "-D"));
  std::size_t count = 1;
  for (auto n : shape)
    count *= static_cast<std::size_t>(n);
  if (count != host.size())
    user_error(cat("an image of ", count, " values made from ", host.size(), " host values"));
  const std::size_t w = static_cast<std::size_t>(shape.back());
  const std::size_t h = static_cast<std::size_t>(shape[shape.size() - 2]);
  const std::size_t depth = shape.size() == 3 ? static_cast<std::size_t>(shape[0]) : 1;
  bool fits = shape.size() == 2 ? w <= d.image2d_max_width && h <= d.image2d_max_height
                                : w <= d.image3d_max_width && h <= d.image3d_max_height &&
                                      depth <= d.image3d_max_depth;
  if (!fits)
    user_error(cat("an image of ", w, " x ", h, shape.size() == 3 ? cat(" x ", depth) : "",
                   " values exceeds the largest image of ", d.name));
  cl::ImageFormat format(CL_R, CL_FLOAT);
  cl_int err = CL_SUCCESS;
  auto* data = const_cast<float*>(host.data());
  cl_mem_flags flags = CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR;
  if (shape.size() == 2)
    image_ = std::make_shared<cl::Image2D>(session.context(), flags, format, w, h, 0, data, &err);
  else
    image_ = std::make_shared<cl::Image3D>(session.context(), flags, format, w, h, depth, 0, 0,
                                           data, &err);
  check_cl(err, cat("creating a ", w, " x ", h, shape.size() == 3 ? cat(" x ", depth) : "",
                    " image on ", d.name));
}

} // namespace tessera::runtime
