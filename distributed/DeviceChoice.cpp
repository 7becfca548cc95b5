#include "distributed/DeviceChoice.h"

#include "runtime/DeviceMatch.h"

namespace tessera::distributed {

runtime::Device device_for_rank(const std::string& spec, int host_rank) {
  auto devices = runtime::matching_devices(runtime::list_devices(), spec);
  return devices.at(static_cast<std::size_t>(host_rank) % devices.size());
}

} // namespace tessera::distributed
