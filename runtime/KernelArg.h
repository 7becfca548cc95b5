// One kernel argument: a device buffer, a scalar (passed with its exact C++ width, so an int
// argument needs an int32 value), or a local-memory size.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "runtime/Buffer.h"
#include "runtime/Image.h"
#include "runtime/OpenCL.h"

namespace tessera::runtime {

// A __local pointer argument of the given size in bytes.
struct LocalMemory {
  std::size_t bytes = 0;
};

class KernelArg {
public:
  enum class Kind { Buffer, Scalar, Local, Image };

  KernelArg(const cl::Buffer& buffer) : kind_(Kind::Buffer), buffer_(buffer) {}
  KernelArg(const RawBuffer& buffer) : KernelArg(buffer.handle()) {}
  template <DeviceScalar T> KernelArg(const Buffer<T>& buffer) : KernelArg(buffer.handle()) {}
  KernelArg(const Image& image) : kind_(Kind::Image), image_(image) {}
  KernelArg(LocalMemory local) : kind_(Kind::Local), size_(local.bytes) {}
  template <class T>
  requires((std::integral<T> && !std::same_as<T, bool>) || std::same_as<T, float> ||
           std::same_as<T, double>) KernelArg(T value)
      : kind_(Kind::Scalar), size_(sizeof(T)) {
    std::memcpy(bytes_, &value, sizeof(T));
    if constexpr (std::same_as<T, float>)
      type_ = "float";
    else if constexpr (std::same_as<T, double>)
      type_ = "double";
    else
      type_ = std::string(std::is_signed_v<T> ? "int" : "uint") + std::to_string(8 * sizeof(T));
  }

  Kind kind() const { return kind_; }
  // Sets this as argument index of kernel; returns the OpenCL error code.
  int set(cl::Kernel& kernel, unsigned index) const;
  // "buffer", "image", "float scalar", "int64 scalar", "local memory (1024 bytes)".
  std::string describe() const;

private:
  Kind kind_;
  cl::Buffer buffer_;
  Image image_;
  std::size_t size_ = 0;
  unsigned char bytes_[8] = {};
  std::string type_;
};

} // namespace tessera::runtime
