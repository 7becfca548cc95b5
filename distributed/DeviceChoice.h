// One OpenCL device per rank: the devices a spec matches (the same matching as --device and
// TESSERA_DEVICE), taken round robin by the ranks of a host.
#pragma once

#include <string>
#include <vector>

#include "explore/runtime/Device.h"

namespace tessera::distributed {

// Every device of `devices` that the spec matches (select_device_among on each alone); an empty
// spec (after TESSERA_DEVICE) matches the default device only. Error listing the devices when
// none matches.
std::vector<runtime::Device> matching_devices(const std::vector<runtime::Device>& devices,
                                              const std::string& spec);

// The device of the rank with index `host_rank` among the ranks of its host.
runtime::Device device_for_rank(const std::string& spec, int host_rank);

} // namespace tessera::distributed
