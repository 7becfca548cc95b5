#include "explore/runtime/Buffer.h"

#include "core/Bytes.h"
#include "core/Error.h"
#include "explore/runtime/ClError.h"
#include "explore/runtime/Device.h"
#include "explore/runtime/Session.h"

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

void RawBuffer::fill(const void* pattern, std::size_t pattern_size) {
  cl_int err = CL_SUCCESS;
  if (bytes_ % pattern_size != 0)
    user_error(
        cat("filling a buffer of ", bytes_, " bytes with a pattern of ", pattern_size, " bytes"));
  cl::Event done;
  err = clEnqueueFillBuffer(queue_(), buffer_(), pattern, pattern_size, 0, bytes_, 0, nullptr,
                            &done());
  if (is_out_of_memory(err))
    out_of_memory(device_name_, bytes_, err);
  check_cl(err, cat("filling a device buffer on ", device_name_));
  check_cl(done.wait(), cat("filling a device buffer on ", device_name_));
}

} // namespace tessera::runtime
