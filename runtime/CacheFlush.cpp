#include "runtime/CacheFlush.h"

namespace tessera::runtime {

CacheFlush::CacheFlush(Session& session, std::size_t bytes) : buffer_(session, bytes) {}

void CacheFlush::flush() {
  ++pattern_;
  buffer_.fill(&pattern_, sizeof pattern_); // blocking
}

} // namespace tessera::runtime
