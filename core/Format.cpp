#include "core/Format.h"

#include <iomanip>
#include <sstream>

namespace tessera {

std::string fixed(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

} // namespace tessera
