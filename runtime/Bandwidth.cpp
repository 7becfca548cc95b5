#include "runtime/Bandwidth.h"

#include <algorithm>

#include "core/Error.h"
#include "runtime/Buffer.h"
#include "runtime/ClError.h"
#include "runtime/Launch.h"
#include "runtime/Session.h"

namespace tessera::runtime {

Bandwidth measure_copy_bandwidth(Session& session, std::size_t bytes, TimingOptions options) {
  if (options.repeats < 1)
    user_error(cat("measuring the copy bandwidth needs at least 1 repeat, got ", options.repeats));
  const Device& device = session.device();
  if (device.max_mem_alloc_size != 0)
    bytes = std::min<std::size_t>(bytes, device.max_mem_alloc_size);
  bytes = std::max<std::size_t>(bytes / 4 * 4, 4);
  Buffer<uint8_t> from(session, bytes), to(session, bytes);
  from.fill(1);
  auto copy = [&]() {
    cl::Event event;
    check_cl(
        session.queue().enqueueCopyBuffer(from.handle(), to.handle(), 0, 0, bytes, nullptr, &event),
        cat("copying ", bytes, " bytes on ", device.name));
    check_cl(event.wait(), cat("copying ", bytes, " bytes on ", device.name));
    return event;
  };
  for (int i = 0; i < options.warmup; ++i)
    copy();
  std::vector<double> samples;
  for (int i = 0; i < options.repeats; ++i)
    samples.push_back(event_ms(copy()));
  Bandwidth b;
  b.bytes = bytes;
  b.median_ms = median(samples);
  b.gb_per_s = b.median_ms > 0 ? 2.0 * static_cast<double>(bytes) / (b.median_ms * 1e6) : 0.0;
  return b;
}

} // namespace tessera::runtime
