// One OpenCL device per rank: the devices a spec matches (runtime::matching_devices: the same
// matching as --device and TESSERA_DEVICE), taken round robin by the ranks of a host; and what
// the ranks' devices have in common.
#pragma once

#include <string>

#include "distributed/Mpi.h"
#include "runtime/Device.h"

namespace tessera::distributed {

// The device of the rank with index `host_rank` among the ranks of its host.
runtime::Device device_for_rank(const std::string& spec, int host_rank);

// What every rank of a communicator knows alike of the ranks' devices, so that choices made
// from it (which faces carry one colour, whether replicas of a computation agree) are the same
// on every rank: a choice made from a rank's own device alone would pair exchanges of different
// sizes between a GPU rank and a CPU rank.
struct RankDevices {
  bool same = false;     // one model and driver (Device::identity) on every rank
  bool all_gpus = false; // every rank's device is a GPU
};
// Collective over `world`.
RankDevices agree_on_devices(const Communicator& world, const runtime::Device& mine);

} // namespace tessera::distributed
