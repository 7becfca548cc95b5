// Every device a spec matches (for work spread over several devices: the ranks of a host, an
// exploration over all devices), with the same matching as one device's selection (Device.h).
#pragma once

#include <string>
#include <vector>

#include "runtime/Device.h"

namespace tessera::runtime {

// "all": every device. A name, vendor or type ("gpu", "NVIDIA"): every device that
// select_device_among matches alone. An index ("3", "0:1"): that device. Empty: TESSERA_DEVICE,
// else the default device. Error listing the devices when none matches.
std::vector<Device> matching_devices(const std::vector<Device>& devices, const std::string& spec);

} // namespace tessera::runtime
