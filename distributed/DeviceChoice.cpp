#include "distributed/DeviceChoice.h"

#include "runtime/DeviceMatch.h"

namespace tessera::distributed {

runtime::Device device_for_rank(const std::string& spec, int host_rank) {
  auto devices = runtime::matching_devices(runtime::list_devices(), spec);
  return devices.at(static_cast<std::size_t>(host_rank) % devices.size());
}

RankDevices agree_on_devices(const Communicator& world, const runtime::Device& mine) {
  const std::string id = mine.identity();
  auto all = world.gather(std::vector<unsigned char>(id.begin(), id.end()));
  std::vector<unsigned char> same{1};
  for (const auto& other : all) // (rank 0 alone has them)
    if (std::string(other.begin(), other.end()) != id)
      same[0] = 0;
  world.broadcast(same);
  const auto gpus = world.sum(uint64_t{mine.type == "GPU" ? 1u : 0u});
  return {same.at(0) == 1, gpus == static_cast<uint64_t>(world.size())};
}

} // namespace tessera::distributed
