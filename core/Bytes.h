// Byte counts as people read them: "512 B", "4 KiB", "1.5 GiB" (binary units).
#pragma once

#include <cstdint>
#include <string>

namespace tessera {

std::string format_bytes(uint64_t bytes);

} // namespace tessera
