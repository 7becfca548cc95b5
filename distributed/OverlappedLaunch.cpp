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
// a launch of part of its range computes exactly those points (with a work-group that divides
// the part: none, one point along `dim`, or one chosen again for the part on a CPU).
bool offsettable(const CompiledKernel& k, const std::vector<int64_t>& box, std::size_t dim) {
  const std::size_t dims = box.size();
  if (k.global.dims() != static_cast<int>(dims) ||
      k.code.source.find("get_group_id") != std::string::npos ||
      k.code.source.find("get_local_id") != std::string::npos)
    return false;
  const int axis = static_cast<int>(dims - 1 - dim);
  return k.global[axis] == static_cast<std::size_t>(box[dim]) &&
         (k.local.empty() || k.local[axis] == 1 || k.local_for_cpu);
}

} // namespace

bool MultigridLayout::launch_overlapped(Schedule& s, std::size_t l, const std::string& label,
                                        const std::shared_ptr<CompiledKernel>& kernel,
                                        const std::vector<Read>& reads, BufferId output,
                                        const Exchange& e) {
  const BufferId exchanged = e.buffer;
  // The exchange is of the kernel's level, or of the finer one it reads (the residual fused
  // with its restriction).
  const std::size_t x = e.level;
  if (!overlap_ || world_.size() < 2 || x >= exchanges_.size() || !exchanges_[x]->splits() ||
      (x != l && x + 1 != l))
    return false;
  const Block& b = blocks_.at(l);
  const auto box = b.extended();
  const auto d = static_cast<std::size_t>(exchanges_[x]->dimension());
  if (!offsettable(*kernel, box, d))
    return false;
  // How far the kernel's points read into the exchanged buffer's halo, in its own points: a
  // coarse point's children read r fine points around them, ceil(r / 2) coarse points.
  int64_t radius = 0;
  for (const Read& r : reads) {
    if (r.buffer != exchanged)
      continue;
    const Read::Level expected = x == l ? Read::Level::Same : Read::Level::Finer;
    if (r.level != expected)
      return false;
    radius = std::max<int64_t>(radius, x == l ? r.radius : (r.radius + 1) / 2);
  }
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
      [this, x, e](DeviceMemory& memory) {
        exchanges_[x]->begin(cart_, session_->queue(), memory.buffer(e.buffer).handle(), e.colour);
      },
      {}, /*ordered_by_queue=*/true);
  const int before0 = s.exact_halo(exchanged, 0), before1 = s.exact_halo(exchanged, 1);
  launch_range(lo, hi); // while the faces travel
  s.host(
      "halo exchange",
      [this, x](DeviceMemory&) {
        exchanges_[x]->end();
        ++exchange_counts_[x];
      },
      {exchanged}, /*ordered_by_queue=*/true);
  mark_exchanged(s, e, before0, before1);
  launch_range(0, lo);
  launch_range(hi, box[d]);
  return true;
}

} // namespace tessera::distributed
