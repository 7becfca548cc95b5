#include "runtime/Buffer.h"

#include <algorithm>
#include <cstring>

#include "core/Bytes.h"
#include "core/Error.h"
#include "runtime/ClError.h"
#include "runtime/Device.h"
#include "runtime/Session.h"

namespace tessera::runtime {

namespace {

bool is_out_of_memory(cl_int err) {
  return err == CL_MEM_OBJECT_ALLOCATION_FAILURE || err == CL_OUT_OF_RESOURCES ||
         err == CL_OUT_OF_HOST_MEMORY;
}

[[noreturn]] void out_of_memory(const std::string& device, std::size_t bytes, cl_int err,
                                const std::string& detail = "") {
  user_error(cat("out of device memory allocating ", bytes, " bytes (", format_bytes(bytes),
                 ") on ", device, detail, ": ", cl_error_name(err)));
}

} // namespace

void buffer_size_mismatch(const char* what, std::size_t got, std::size_t size) {
  user_error(cat("Buffer::", what, ": the host data has ", got,
                 " elements but the device buffer has ", size));
}

RawBuffer::RawBuffer(Session& session, std::size_t bytes, const void* host, cl_mem_flags flags)
    : queue_(session.queue()), bytes_(bytes), device_name_(session.device().name) {
  const Device& device = session.device();
  if (bytes == 0)
    user_error(cat("cannot allocate an empty device buffer (0 bytes) on ", device.name));
  if (device.max_mem_alloc_size != 0 && bytes > device.max_mem_alloc_size)
    out_of_memory(device.name, bytes, CL_INVALID_BUFFER_SIZE,
                  cat(" (the device's largest single allocation is ",
                      format_bytes(device.max_mem_alloc_size), ", its global memory ",
                      format_bytes(device.global_mem_size), ")"));
  cl_int err = CL_SUCCESS;
  if (host != nullptr)
    flags |= CL_MEM_COPY_HOST_PTR;
  buffer_ = cl::Buffer(session.context(), flags, bytes, const_cast<void*>(host), &err);
  if (is_out_of_memory(err))
    out_of_memory(device.name, bytes, err);
  check_cl(err, cat("allocating a device buffer of ", bytes, " bytes on ", device.name));
}

void RawBuffer::write(const void* host, std::size_t bytes, std::size_t offset) {
  if (offset + bytes > bytes_)
    user_error(cat("writing ", bytes, " bytes at offset ", offset, " into a device buffer of ",
                   bytes_, " bytes"));
  cl_int err = queue_.enqueueWriteBuffer(buffer_, CL_TRUE, offset, bytes, host);
  if (is_out_of_memory(err))
    out_of_memory(device_name_, bytes_, err);
  check_cl(err, cat("writing ", bytes, " bytes to a device buffer on ", device_name_));
}

void RawBuffer::read(void* host, std::size_t bytes, std::size_t offset) const {
  if (offset + bytes > bytes_)
    user_error(cat("reading ", bytes, " bytes at offset ", offset, " from a device buffer of ",
                   bytes_, " bytes"));
  cl_int err = queue_.enqueueReadBuffer(buffer_, CL_TRUE, offset, bytes, host);
  if (is_out_of_memory(err))
    out_of_memory(device_name_, bytes_, err);
  check_cl(err, cat("reading ", bytes, " bytes from a device buffer on ", device_name_));
}

FillPlan plan_fill(std::size_t bytes, std::size_t pattern_size, std::size_t largest) {
  if (pattern_size == 0 || pattern_size > FillPlan::kWidest || (pattern_size & (pattern_size - 1)))
    user_error(cat("a fill pattern of ", pattern_size, " bytes (expected 1, 2, 4, ..., 128)"));
  if (bytes % pattern_size != 0)
    user_error(
        cat("filling a buffer of ", bytes, " bytes with a pattern of ", pattern_size, " bytes"));
  FillPlan plan;
  plan.width = std::max(FillPlan::kNarrowest, pattern_size);
  while (plan.width < FillPlan::kWidest && bytes / plan.width >= (std::size_t{1} << 31))
    plan.width *= 2;
  const std::size_t width = plan.width;
  plan.bulk = bytes - bytes % width;
  const std::size_t step = std::max(width, largest - largest % width);
  for (std::size_t offset = 0; offset < plan.bulk; offset += step) {
    plan.piece_offsets.push_back(offset);
    plan.piece_bytes.push_back(std::min(step, plan.bulk - offset));
  }
  plan.tail_from_host = bytes / pattern_size >= (std::size_t{1} << 31);
  return plan;
}

cl::Event enqueue_fill(cl::CommandQueue& queue, const cl::Buffer& buffer, std::size_t bytes,
                       const void* pattern, std::size_t pattern_size, const std::string& what) {
  const FillPlan plan = plan_fill(bytes, pattern_size);
  std::vector<unsigned char> wide(plan.width);
  for (std::size_t i = 0; i < wide.size(); i += pattern_size)
    std::memcpy(wide.data() + i, pattern, pattern_size);
  cl::Event last;
  auto check = [&](cl_int err) {
    if (is_out_of_memory(err)) // devices that allocate lazily find out here
      user_error(cat("out of device memory filling ", what, ": ", cl_error_name(err)));
    check_cl(err, cat("filling ", what));
  };
  auto fill = [&](const void* p, std::size_t size, std::size_t offset, std::size_t n) {
    last = cl::Event();
    check(clEnqueueFillBuffer(queue(), buffer(), p, size, offset, n, 0, nullptr, &last()));
  };
  for (std::size_t i = 0; i < plan.piece_offsets.size(); ++i)
    fill(wide.data(), wide.size(), plan.piece_offsets[i], plan.piece_bytes[i]);
  if (plan.bulk < bytes && !plan.tail_from_host)
    fill(pattern, pattern_size, plan.bulk, bytes - plan.bulk);
  else if (plan.bulk < bytes) // blocking: `wide` is gone on return
    check(queue.enqueueWriteBuffer(buffer, CL_TRUE, plan.bulk, bytes - plan.bulk, wide.data(),
                                   nullptr, &last));
  return last;
}

void RawBuffer::fill(const void* pattern, std::size_t pattern_size) {
  const std::string what = cat("a device buffer on ", device_name_);
  check_cl(enqueue_fill(queue_, buffer_, bytes_, pattern, pattern_size, what).wait(),
           cat("filling ", what));
}

} // namespace tessera::runtime
