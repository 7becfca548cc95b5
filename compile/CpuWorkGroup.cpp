#include "compile/CpuWorkGroup.h"

#include <algorithm>

namespace tessera::explore {

namespace {

// The largest divisor of n up to limit (at least 1).
std::size_t divisor_up_to(std::size_t n, std::size_t limit) {
  for (std::size_t x = std::max<std::size_t>(limit, 1); x > 1; --x)
    if (n % x == 0)
      return x;
  return 1;
}

} // namespace

runtime::Range cpu_work_group(const std::vector<std::size_t>& global,
                              std::size_t max_work_group_size,
                              const std::vector<std::size_t>& max_work_item_sizes,
                              int64_t private_bytes, int64_t private_bytes_limit) {
  std::vector<std::size_t> group(global.size(), 1);
  std::size_t room = std::min(kCpuWorkGroupItems, max_work_group_size);
  if (private_bytes > 0 && private_bytes_limit > 0)
    room = std::min(
        room, static_cast<std::size_t>(std::max<int64_t>(1, private_bytes_limit / private_bytes)));
  for (std::size_t a = 0; a < global.size() && room >= 2; ++a) {
    std::size_t limit = room;
    if (a < max_work_item_sizes.size())
      limit = std::min(limit, max_work_item_sizes[a]);
    group[a] = divisor_up_to(global[a], limit);
    room /= group[a];
  }
  return runtime::Range::of(group);
}

runtime::Range cpu_part_group(std::vector<std::size_t> part, std::size_t thin,
                              std::size_t max_work_group_size,
                              const std::vector<std::size_t>& max_work_item_sizes,
                              int64_t private_bytes, int64_t private_bytes_limit) {
  bool row = false;
  for (auto& s : part) {
    if (!row && s > thin)
      row = true;
    else
      s = 1;
  }
  return cpu_work_group(part, max_work_group_size, max_work_item_sizes, private_bytes,
                        private_bytes_limit);
}

} // namespace tessera::explore
