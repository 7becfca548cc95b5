#include "core/Bytes.h"

#include <iomanip>
#include <sstream>

namespace tessera {

std::string format_bytes(uint64_t bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024.0 && unit < 4) {
    value /= 1024.0;
    ++unit;
  }
  std::ostringstream out;
  if (unit == 0 || value == static_cast<double>(static_cast<uint64_t>(value)))
    out << static_cast<uint64_t>(value) << " " << units[unit];
  else
    out << std::fixed << std::setprecision(1) << value << " " << units[unit];
  return out.str();
}

} // namespace tessera
