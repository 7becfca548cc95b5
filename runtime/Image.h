// A read-only 2-D or 3-D image of f32 values (CL_R, CL_FLOAT) made from a row-major host array,
// for kernel inputs placed as images (place-image, codegen/Image.h). The shape is outermost
// first, so the innermost extent is the image's width.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "runtime/OpenCL.h"

namespace tessera::runtime {

class Session;

class Image {
public:
  Image() = default;
  // Throws Error when the device has no images or the shape exceeds its largest image.
  Image(Session& session, const std::vector<int64_t>& shape, std::span<const float> host);

  const cl::Image& handle() const { return *image_; }

private:
  std::shared_ptr<cl::Image> image_;
};

} // namespace tessera::runtime
