// Typed device buffers: created from host data (or uninitialised), read back, written, filled.
// Allocation failures are reported as "out of device memory allocating N bytes on DEVICE".
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "explore/runtime/OpenCL.h"

namespace tessera::runtime {

class Session;

template <class T>
concept DeviceScalar = std::same_as<T, float> || std::same_as<T, double> ||
    std::same_as<T, int8_t> || std::same_as<T, uint8_t> || std::same_as<T, int16_t> ||
    std::same_as<T, uint16_t> || std::same_as<T, int32_t> || std::same_as<T, uint32_t> ||
    std::same_as<T, int64_t> || std::same_as<T, uint64_t>;

// The untyped part: a cl::Buffer with its byte size and the queue used for transfers.
class RawBuffer {
public:
  RawBuffer() = default;
  // Allocates bytes on the session's device, copying from host when it is not null.
  RawBuffer(Session& session, std::size_t bytes, const void* host = nullptr,
            cl_mem_flags flags = CL_MEM_READ_WRITE);

  std::size_t bytes() const { return bytes_; }
  const cl::Buffer& handle() const { return buffer_; }
  const std::string& device_name() const { return device_name_; }

  // Blocking transfers of bytes starting at offset (in bytes).
  void write(const void* host, std::size_t bytes, std::size_t offset = 0);
  void read(void* host, std::size_t bytes, std::size_t offset = 0) const;
  // Fills the whole buffer with copies of the pattern (of pattern_size bytes).
  void fill(const void* pattern, std::size_t pattern_size);

private:
  cl::Buffer buffer_;
  mutable cl::CommandQueue queue_;
  std::size_t bytes_ = 0;
  std::string device_name_;
};

template <DeviceScalar T> class Buffer {
public:
  using value_type = T;

  Buffer() = default;
  // count elements, uninitialised.
  Buffer(Session& session, std::size_t count) : raw_(session, count * sizeof(T)), count_(count) {}
  // A copy of host.
  Buffer(Session& session, std::span<const T> host)
      : raw_(session, host.size_bytes(), host.data()), count_(host.size()) {}
  Buffer(Session& session, const std::vector<T>& host)
      : Buffer(session, std::span<const T>(host)) {}

  std::size_t size() const { return count_; }
  std::size_t bytes() const { return raw_.bytes(); }
  const cl::Buffer& handle() const { return raw_.handle(); }
  const RawBuffer& raw() const { return raw_; }

  std::vector<T> read() const {
    std::vector<T> host(count_);
    raw_.read(host.data(), host.size() * sizeof(T));
    return host;
  }
  void read_into(std::span<T> host) const {
    check_count(host.size(), "read_into");
    raw_.read(host.data(), host.size_bytes());
  }
  void write(std::span<const T> host) {
    check_count(host.size(), "write");
    raw_.write(host.data(), host.size_bytes());
  }
  void write(const std::vector<T>& host) { write(std::span<const T>(host)); }
  void fill(T value) { raw_.fill(&value, sizeof(T)); }

private:
  void check_count(std::size_t n, const char* what) const;

  RawBuffer raw_;
  std::size_t count_ = 0;
};

[[noreturn]] void buffer_size_mismatch(const char* what, std::size_t got, std::size_t size);

template <DeviceScalar T> void Buffer<T>::check_count(std::size_t n, const char* what) const {
  if (n != count_)
    buffer_size_mismatch(what, n, count_);
}

} // namespace tessera::runtime
