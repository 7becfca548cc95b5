#include "runtime/Roofline.h"

#include <algorithm>
#include <ctime>
#include <vector>

#include "core/Bytes.h"
#include "core/Error.h"
#include "runtime/Buffer.h"
#include "runtime/ClError.h"
#include "runtime/Device.h"
#include "runtime/DeviceTarget.h"
#include "runtime/Launch.h"
#include "runtime/Session.h"

namespace tessera::runtime {

namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

// One element per work-item: the copies a bandwidth-bound kernel is made of.
const char* kCopyKernels = R"(
__kernel void roofline_copy(const __global float* restrict from, __global float* restrict to) {
  const size_t i = get_global_id(0);
  to[i] = from[i];
}
__kernel void roofline_copy4(const __global float4* restrict from, __global float4* restrict to) {
  const size_t i = get_global_id(0);
  to[i] = from[i];
})";

std::string utc_date() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return text;
}

// The first and last floats of `to` must be the copied 1.0f: a copy that copies nothing would
// otherwise set the roofline.
void check_copied(Session& session, const Buffer<float>& to, std::size_t bytes, const char* what) {
  float head[16], tail[16];
  std::string context = cat("reading back the roofline's copy (", what, ")");
  check_cl(session.queue().enqueueReadBuffer(to.handle(), CL_TRUE, 0, sizeof head, head), context);
  check_cl(session.queue().enqueueReadBuffer(to.handle(), CL_TRUE, bytes - sizeof tail, sizeof tail,
                                             tail),
           context);
  for (int i = 0; i < 16; ++i)
    if (head[i] != 1.0f || tail[i] != 1.0f)
      user_error(cat("the roofline's ", what, " did not copy its buffer on ", session.device().name,
                     " (read back ", head[i], " and ", tail[i], ")"));
}

// The work-group sizes a copy kernel is timed at: the implementation's choice (0), then sizes
// that divide the launch and that the device and the kernel allow (check_launch). PoCL's own
// choice for a 1-D copy is not its fastest (a stencil kernel with rows of 512 work-items copied
// faster than it), and a roofline below what kernels reach would put them above 100%.
std::vector<std::size_t> copy_group_sizes(const Device& device, const Kernel& kernel,
                                          std::size_t items) {
  std::vector<std::size_t> sizes{0};
  for (std::size_t local : {64, 256, 1024}) {
    if (items % local != 0)
      continue;
    try {
      check_launch(device, kernel, Range(items), Range(local));
      sizes.push_back(local);
    } catch (const Error&) {
      // a size this device or kernel refuses is not one of its copies
    }
  }
  return sizes;
}

} // namespace

std::size_t roofline_target_bytes(const Device& device, uint64_t cache_bytes, uint64_t cap) {
  uint64_t target = std::max<uint64_t>(4 * cache_bytes, 64 * kMiB);
  target = target_of(device).kind == DeviceKind::GPU ? std::max(target, kGiB)
                                                     : std::min(target, 2 * kGiB);
  target = std::min(target, cap);
  return static_cast<std::size_t>(std::max<uint64_t>(target / 16 * 16, 16));
}

std::size_t roofline_buffer_bytes(const Device& device, uint64_t cache_bytes,
                                  std::string* limited_by, uint64_t cap) {
  const uint64_t target = roofline_target_bytes(device, cache_bytes, UINT64_MAX);
  uint64_t bytes = target;
  std::string why;
  auto clamp = [&](uint64_t limit, const std::string& reason) {
    if (limit != 0 && limit < bytes) {
      bytes = limit;
      why = reason;
    }
  };
  clamp(device.max_mem_alloc_size,
        cat("the device's largest allocation (", format_bytes(device.max_mem_alloc_size), ")"));
  clamp(device.global_mem_size / 3, cat("a third of the device's global memory (",
                                        format_bytes(device.global_mem_size), ") per buffer"));
  clamp(cap, cat("TESSERA_ROOFLINE_BYTES=", cap));
  bytes = std::max<uint64_t>(bytes / 16 * 16, 16);
  if (limited_by)
    *limited_by = bytes < target ? cat("buffers of ", format_bytes(bytes), " instead of ",
                                       format_bytes(target), ": limited by ", why)
                                 : "";
  return static_cast<std::size_t>(bytes);
}

Roofline measure_roofline(Session& session, std::size_t bytes, TimingOptions options) {
  if (options.repeats < 1)
    user_error(cat("measuring the roofline needs at least 1 repeat, got ", options.repeats));
  if (bytes < 16 || bytes % 16 != 0)
    user_error(cat("the roofline's buffers must be a positive multiple of 16 bytes, got ", bytes));
  const Device& device = session.device();
  Buffer<float> from(session, bytes / 4), to(session, bytes / 4);
  from.fill(1.0f);
  to.fill(0.0f);
  Roofline r;
  r.buffer_bytes = bytes;
  r.measured_at = utc_date();
  auto rate = [&](double ms) { return ms > 0 ? 2.0 * static_cast<double>(bytes) / (ms * 1e6) : 0; };

  auto enqueue_copy = [&]() {
    cl::Event event;
    std::string what = cat("copying ", format_bytes(bytes), " on ", device.name);
    check_cl(
        session.queue().enqueueCopyBuffer(from.handle(), to.handle(), 0, 0, bytes, nullptr, &event),
        what);
    check_cl(event.wait(), what);
    return event_ms(event);
  };
  for (int i = 0; i < options.warmup; ++i)
    enqueue_copy();
  std::vector<double> samples;
  for (int i = 0; i < options.repeats; ++i)
    samples.push_back(enqueue_copy());
  r.methods["clEnqueueCopyBuffer"] = rate(median(samples));
  check_copied(session, to, bytes, "clEnqueueCopyBuffer");
  to.fill(0.0f);

  for (auto [name, width] : {std::pair<const char*, std::size_t>{"roofline_copy", 1},
                             std::pair<const char*, std::size_t>{"roofline_copy4", 4}}) {
    auto kernel = session.build_kernel(kCopyKernels, name);
    const std::size_t items = bytes / 4 / width;
    for (std::size_t local : copy_group_sizes(device, kernel, items)) {
      auto t = time_kernel(session, kernel, {from, to}, Range(items),
                           local ? Range(local) : Range{}, options);
      std::string method = width == 1 ? "copy kernel" : "float4 copy kernel";
      if (local)
        method += cat(", ", local, " work-items a group");
      r.methods[method] = rate(t.median_ms);
      check_copied(session, to, bytes, name);
      to.fill(0.0f);
    }
  }
  for (const auto& [method, gbps] : r.methods)
    if (gbps > r.gb_per_s) {
      r.gb_per_s = gbps;
      r.method = method;
    }
  return r;
}

} // namespace tessera::runtime
