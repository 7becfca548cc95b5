#include "distributed/BlockGrid.h"

#include "core/Error.h"

namespace tessera::distributed {

std::string extents_text(const std::vector<int64_t>& extents) {
  std::string text;
  // Appended piece by piece: GCC 12 warns falsely (-Wstringop-overflow) on "x" + string.
  for (std::size_t d = 0; d < extents.size(); ++d) {
    if (d)
      text += 'x';
    text += std::to_string(extents[d]);
  }
  return text;
}

std::vector<int64_t> Block::extended() const {
  std::vector<int64_t> e(extent.size());
  for (std::size_t d = 0; d < e.size(); ++d)
    e[d] = extent[d] + halo_lo[d] + halo_hi[d];
  return e;
}

int64_t Block::points() const {
  int64_t p = 1;
  for (auto e : extent)
    p *= e;
  return p;
}

void BlockGrid::validate() const {
  if (ranks.size() != global.size())
    user_error(cat("a grid of ", global.size(), " dimensions needs ranks along ", global.size(),
                   " dimensions, got ", ranks.size()));
  if (radius < 0 || steps < 1)
    user_error(cat("radius must be >= 0 and steps >= 1, got ", radius, " and ", steps));
  std::vector<int64_t> rank_extents(ranks.begin(), ranks.end());
  for (std::size_t d = 0; d < global.size(); ++d) {
    if (ranks[d] < 1 || global[d] < 1)
      user_error(cat("every dimension needs a positive extent and at least one rank, got grid ",
                     extents_text(global), " over ranks ", extents_text(rank_extents)));
    bool exchanges = ranks[d] > 1;
    int64_t thinnest = global[d] / ranks[d];
    if (exchanges && thinnest < halo())
      user_error(cat("the grid ", extents_text(global), " split over ", extents_text(rank_extents),
                     " ranks has blocks of ", thinnest, " points along dimension ", d,
                     ", thinner than the halo of ", halo(), " (radius ", radius, " x ", steps,
                     " fused steps): use fewer ranks, fewer --steps or a larger --size"));
  }
}

std::vector<int> BlockGrid::coords_of(int rank) const {
  std::vector<int> c(ranks.size());
  for (int d = static_cast<int>(ranks.size()) - 1; d >= 0; --d) {
    c[d] = rank % ranks[d];
    rank /= ranks[d];
  }
  return c;
}

Block BlockGrid::block(const std::vector<int>& coords) const {
  Block b;
  b.coords = coords;
  for (std::size_t d = 0; d < global.size(); ++d) {
    int64_t base = global[d] / ranks[d], extra = global[d] % ranks[d];
    int64_t c = coords.at(d);
    b.extent.push_back(base + (c < extra ? 1 : 0));
    b.offset.push_back(c * base + std::min(c, extra));
    bool several = ranks[d] > 1;
    bool lo = several && (periodic || c > 0);
    bool hi = several && (periodic || c < ranks[d] - 1);
    b.internal.push_back({lo, hi});
    b.halo_lo.push_back(lo ? halo() : 0);
    b.halo_hi.push_back(hi ? halo() : 0);
  }
  return b;
}

namespace {

// The box computing the output region [out_lo, out_hi) of the block: each side is a global
// edge when it is the block's global edge, otherwise its input reaches h further (into the
// halo or into the block's own data).
Box box_for(const Block& block, int64_t h, const std::vector<int64_t>& out_lo,
            const std::vector<int64_t>& out_hi) {
  Box box;
  for (std::size_t d = 0; d < out_lo.size(); ++d) {
    bool lo_edge = out_lo[d] == 0 && !block.internal[d][0];
    bool hi_edge = out_hi[d] == block.extent[d] && !block.internal[d][1];
    box.internal.push_back({!lo_edge, !hi_edge});
    box.out_offset.push_back(out_lo[d]);
    box.out_extent.push_back(out_hi[d] - out_lo[d]);
    int64_t in_lo = block.halo_lo[d] + out_lo[d] - (lo_edge ? 0 : h);
    int64_t in_hi = block.halo_lo[d] + out_hi[d] + (hi_edge ? 0 : h);
    box.in_offset.push_back(in_lo);
    box.in_extent.push_back(in_hi - in_lo);
  }
  return box;
}

bool inside(const Box& box, const std::vector<int64_t>& extended) {
  for (std::size_t d = 0; d < extended.size(); ++d)
    if (box.out_extent[d] < 1 || box.in_offset[d] < 0 ||
        box.in_offset[d] + box.in_extent[d] > extended[d])
      return false;
  return true;
}

} // namespace

std::vector<Box> boxes(const Block& block, int64_t radius, int steps, bool overlap) {
  const int64_t h = radius * steps;
  const std::size_t dims = block.extent.size();
  std::vector<int64_t> zero(dims, 0);
  std::vector<Box> whole{box_for(block, h, zero, block.extent)};
  bool any_internal = false;
  for (const auto& s : block.internal)
    any_internal |= s[0] || s[1];
  if (!overlap || !any_internal || h == 0)
    return whole;
  // The interior: the block less h on every internal side.
  std::vector<int64_t> lo(dims), hi(dims);
  for (std::size_t d = 0; d < dims; ++d) {
    lo[d] = block.internal[d][0] ? h : 0;
    hi[d] = block.extent[d] - (block.internal[d][1] ? h : 0);
  }
  std::vector<Box> result{box_for(block, h, lo, hi)};
  // The shell: along dimension d, the slabs [0, h) and [n - h, n) of the internal sides,
  // restricted to the interior's range along the dimensions before d (whose slabs cover the
  // rest) and whole along the dimensions after it: disjoint boxes covering block \ interior.
  for (std::size_t d = 0; d < dims; ++d)
    for (int side = 0; side < 2; ++side) {
      if (!block.internal[d][side])
        continue;
      std::vector<int64_t> a(dims), b(dims);
      for (std::size_t e = 0; e < dims; ++e) {
        a[e] = e < d ? lo[e] : 0;
        b[e] = e < d ? hi[e] : block.extent[e];
      }
      a[d] = side == 0 ? 0 : hi[d];
      b[d] = side == 0 ? lo[d] : block.extent[d];
      result.push_back(box_for(block, h, a, b));
    }
  auto extended = block.extended();
  for (const auto& box : result)
    if (!inside(box, extended))
      return whole;
  return result;
}

} // namespace tessera::distributed
