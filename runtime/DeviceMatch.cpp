#include "runtime/DeviceMatch.h"

#include <cstdlib>

#include "core/Error.h"

namespace tessera::runtime {

std::vector<Device> matching_devices(const std::vector<Device>& devices, const std::string& spec) {
  std::string chosen = spec;
  if (chosen.empty())
    if (const char* env = std::getenv("TESSERA_DEVICE"))
      chosen = env;
  if (chosen.empty())
    return {select_device_among(devices, "")};
  if (chosen == "all") {
    if (devices.empty())
      user_error(missing_device_message(devices, chosen));
    return devices;
  }
  // An index ("3", "0:1") names one device of the whole list.
  if (chosen.find_first_not_of("0123456789:") == std::string::npos)
    return {select_device_among(devices, chosen)};
  std::vector<Device> matches;
  for (const auto& d : devices) {
    try {
      select_device_among({d}, chosen);
      matches.push_back(d);
    } catch (const Error&) {
      // not this one
    }
  }
  if (matches.empty())
    user_error(missing_device_message(devices, chosen));
  return matches;
}

} // namespace tessera::runtime
