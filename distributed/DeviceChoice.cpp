#include "distributed/DeviceChoice.h"

#include <cstdlib>

#include "core/Error.h"

namespace tessera::distributed {

std::vector<runtime::Device> matching_devices(const std::vector<runtime::Device>& devices,
                                              const std::string& spec) {
  std::string chosen = spec;
  if (chosen.empty())
    if (const char* env = std::getenv("TESSERA_DEVICE"))
      chosen = env;
  if (chosen.empty())
    return {runtime::select_device_among(devices, "")};
  // An index ("3", "0:1") names one device of the whole list.
  if (chosen.find_first_not_of("0123456789:") == std::string::npos)
    return {runtime::select_device_among(devices, chosen)};
  std::vector<runtime::Device> matches;
  for (const auto& d : devices) {
    try {
      runtime::select_device_among({d}, chosen);
      matches.push_back(d);
    } catch (const Error&) {
      // not this one
    }
  }
  if (matches.empty())
    user_error(runtime::missing_device_message(devices, chosen));
  return matches;
}

runtime::Device device_for_rank(const std::string& spec, int host_rank) {
  auto devices = matching_devices(runtime::list_devices(), spec);
  return devices.at(static_cast<std::size_t>(host_rank) % devices.size());
}

} // namespace tessera::distributed
