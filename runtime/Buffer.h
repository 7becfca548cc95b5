// Typed device buffers: created from host data (or uninitialised), read back, written, filled.
// Allocation failures are reported as "out of device memory allocating N bytes on DEVICE".
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/OpenCL.h"

namespace tessera::runtime {

class Session;

template <class T>
concept DeviceScalar = std::same_as<T, float> || std::same_as<T, double> ||
    std::same_as<T, int8_t> || std::same_as<T, uint8_t> || std::same_as<T, int16_t> ||
    std::same_as<T, uint16_t> || std::same_as<T, int32_t> || std::same_as<T, uint32_t> ||
    std::same_as<T, int64_t> || std::same_as<T, uint64_t>;

// The untyped part: a cl::Buffer with its byte size and the queue used for transfers.
// How `bytes` bytes of a buffer are filled with copies of a pattern of `pattern_size` bytes (1,
// 2, 4, ..., 128, as OpenCL allows). NVIDIA's OpenCL (driver 580, H100 and H200) counts a fill
// in 32-bit pattern units: with a 1-byte pattern it never finishes a fill of 2^31 to 2^32
// bytes, silently fills nothing at 2^32 and faults beyond offset 2^31 (the first two-rank sweep
// of a 1024^3 grid hung in it). So the pattern is widened for [0, bulk), in pieces of at most
// `largest` bytes, to the narrowest width from 16 bytes up whose units number fewer than 2^31 in
// the buffer: the fill's speed depends on it (an H200 zeroes 1 GiB at 3565 GB/s with 16-byte
// units, 3347 with 8, 260 with 128: bench/fill_bench). The remaining tail (shorter than the
// width) is filled with the pattern itself while its offset counts fewer than 2^31 patterns,
// else written from the host. `largest` is a parameter for the tests.
struct FillPlan {
  static constexpr std::size_t kNarrowest = 16, kWidest = 128;
  std::size_t width = kNarrowest; // bytes of the widened pattern
  std::vector<std::size_t> piece_offsets, piece_bytes;
  std::size_t bulk = 0;        // the pieces cover [0, bulk), the tail [bulk, bytes)
  bool tail_from_host = false; // the tail's offset is too far for its pattern
};
FillPlan plan_fill(std::size_t bytes, std::size_t pattern_size,
                   std::size_t largest = std::size_t{1} << 30);

// Enqueues the fill of the first `bytes` bytes of `buffer` as plan_fill says; returns the event
// of its last command (a tail written from the host is done on return). `what` names the buffer
// in errors.
cl::Event enqueue_fill(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t bytes,
                       const void* pattern, std::size_t pattern_size, const std::string& what);

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
  // Fills the whole buffer with copies of the pattern (of pattern_size bytes), in the pieces
  // fill_pieces gives.
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
