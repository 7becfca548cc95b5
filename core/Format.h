// Numbers as text for reports and tables.
#pragma once

#include <string>

namespace tessera {

// `v` in fixed notation with `digits` digits after the point ("0.347").
std::string fixed(double v, int digits);

} // namespace tessera
