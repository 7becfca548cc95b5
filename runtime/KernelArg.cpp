#include "runtime/KernelArg.h"

#include "core/Error.h"

namespace tessera::runtime {

int KernelArg::set(cl::Kernel& kernel, unsigned index) const {
  switch (kind_) {
  case Kind::Buffer:
    return kernel.setArg(index, buffer_);
  case Kind::Local:
    return kernel.setArg(index, cl::Local(size_));
  case Kind::Image:
    return kernel.setArg(index, sizeof(cl_mem), &image_.handle()());
  case Kind::Scalar:
    return kernel.setArg(index, size_, bytes_);
  }
  return CL_INVALID_VALUE;
}

std::string KernelArg::describe() const {
  switch (kind_) {
  case Kind::Buffer:
    return "buffer";
  case Kind::Local:
    return cat("local memory (", size_, " bytes)");
  case Kind::Image:
    return "image";
  case Kind::Scalar:
    return cat(type_, " scalar (", size_, " bytes)");
  }
  return "?";
}

} // namespace tessera::runtime
