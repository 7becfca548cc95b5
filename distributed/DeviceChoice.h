// One OpenCL device per rank: the devices a spec matches (runtime::matching_devices: the same
// matching as --device and TESSERA_DEVICE), taken round robin by the ranks of a host.
#pragma once

#include <string>

#include "runtime/Device.h"

namespace tessera::distributed {

// The device of the rank with index `host_rank` among the ranks of its host.
runtime::Device device_for_rank(const std::string& spec, int host_rank);

} // namespace tessera::distributed
