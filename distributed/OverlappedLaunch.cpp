// MultigridLayout::launch_overlapped: a kernel that needs a halo exchange, run on the points
// that read none of the halo while the faces travel, then on the rest (docs/distributed.md).
#include <algorithm>

#include "distributed/HaloExchange.h"
#include "distributed/MultigridLayout.h"
#include "runtime/Session.h"

namespace tessera::distributed {

using multigrid::BufferId;
using multigrid::CompiledKernel;
using multigrid::DeviceMemory;
using multigrid::Read;
using multigrid::Schedule;

namespace {

// Whether the kernel's work-items index the box's points by get_global_id alone, one work-item
// per point along `dim` (array dimension, outermost first; OpenCL's axis dims - 1 - dim), so that
// a launch of part of its range computes exactly those points.
bool offsettable(const CompiledKernel& k, const std::vector<int64_t>& box, std::size_t dim) {
  const std::size_t dims = box.size();
  if (k.global.dims() != static_cast<int>(dims) ||
      k.code.source.find("get_group_id") != std::string::npos ||
      k.code.source.find("get_local_id") != std::string::npos)
    return false;
  const int axis = static_cast<int>(dims - 1 - dim);
  return k.global[axis] == static_cast<std::size_t>(box[dim]) &&
         (k.local.empty() || k.local[axis] == 1);
}

} // namespace

bool MultigridLayout::launch_overlapped(Schedule& s, std::size_t l, const std::string& label,
                                        const std::shared_ptr<CompiledKernel>& kernel,
                                        const std::vector<Read>& reads, BufferId output,
                                        const Exchange& e) {
  const BufferId exchanged = e.buffer;
  if (!overlap_ || world_.size() < 2 || l >= exchanges_.size() || !exchanges_[l]->splits())
    return false;
  const Block& b = blocks_.at(l);
  const auto box = b.extended();
  const auto d = static_cast<std::size_t>(exchanges_[l]->dimension());
  if (!offsettable(*kernel, box, d))
    return false;
  int64_t radius = 0; // how far the kernel reads into the exchanged buffer's halo
  for (const Read& r : reads)
    if (r.buffer == exchanged)
      radius = std::max<int64_t>(radius, r.radius);
  // The points that read only the block's own points of `exchanged`, along d.
  const int64_t lo = b.internal[d][0] ? b.halo_lo[d] + radius : 0;
  const int64_t hi = b.internal[d][1] ? b.halo_lo[d] + b.extent[d] - radius : box[d];
  if (hi - lo < 1)
    return false;
  const int axis = static_cast<int>(box.size() - 1 - d);
  auto part = [&](int64_t from, int64_t to, std::vector<std::size_t>& offset,
                  std::vector<std::size_t>& global) {
    offset.assign(static_cast<std::size_t>(kernel->global.dims()), 0);
    global.assign(kernel->global.data(), kernel->global.data() + kernel->global.dims());
    offset[static_cast<std::size_t>(axis)] = static_cast<std::size_t>(from);
    global[static_cast<std::size_t>(axis)] = static_cast<std::size_t>(to - from);
  };
  std::vector<BufferId> inputs;
  for (const Read& r : reads)
    inputs.push_back(r.buffer);
  auto launch_range = [&](int64_t from, int64_t to) {
    if (to <= from)
      return;
    std::vector<std::size_t> offset, global;
    part(from, to, offset, global);
    s.launch_part(label, kernel, inputs, output, runtime::Range::of(offset),
                  runtime::Range::of(global));
  };
  s.host(
      "halo exchange",
      [this, l, e](DeviceMemory& memory) {
        exchanges_[l]->begin(cart_, session_->queue(), memory.buffer(e.buffer).handle(), e.colour);
      },
      {}, /*ordered_by_queue=*/true);
  const int before0 = s.exact_halo(exchanged, 0), before1 = s.exact_halo(exchanged, 1);
  launch_range(lo, hi); // while the faces travel
  s.host(
      "halo exchange",
      [this, l](DeviceMemory&) {
        exchanges_[l]->end();
        ++exchange_counts_[l];
      },
      {exchanged}, /*ordered_by_queue=*/true);
  mark_exchanged(s, e, before0, before1);
  launch_range(0, lo);
  launch_range(hi, box[d]);
  return true;
}

} // namespace tessera::distributed
