// Evicting a device's last-level cache between timed launches: a write of a buffer larger than
// the cache, so that a launch does not find the data the previous one (or the check of its
// output) left there.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/Buffer.h"

namespace tessera::runtime {

class Session;

class CacheFlush {
public:
  // Allocates `bytes` on the session's device (Error when it cannot).
  CacheFlush(Session& session, std::size_t bytes);
  // Fills the whole buffer (a new pattern each time, so that no driver skips it) and waits.
  void flush();
  std::size_t bytes() const { return buffer_.bytes(); }

private:
  RawBuffer buffer_;
  uint32_t pattern_ = 0;
};

} // namespace tessera::runtime
