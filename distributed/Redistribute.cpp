#include "distributed/Redistribute.h"

#include <algorithm>

#include "core/Error.h"

namespace tessera::distributed {

namespace {

constexpr int kTag = 36;

// A block's points; a Block without extents (a rank without a block) has none.
int64_t points_of(const Block& b) {
  return b.extent.empty() ? 0 : b.points();
}

// The points two blocks share (no points: none).
Block overlap(const Block& a, const Block& b) {
  Block o;
  if (points_of(a) == 0 || points_of(b) == 0)
    return o;
  for (std::size_t d = 0; d < a.extent.size(); ++d) {
    const int64_t lo = std::max(a.offset[d], b.offset[d]);
    const int64_t hi = std::min(a.offset[d] + a.extent[d], b.offset[d] + b.extent[d]);
    if (hi <= lo)
      return Block{};
    o.offset.push_back(lo);
    o.extent.push_back(hi - lo);
  }
  return o;
}

// Per point of `region` in row-major order, f(its index in block a, its index in block b).
template <class F> void each_point(const Block& region, const Block& a, const Block& b, F f) {
  const std::size_t dims = region.extent.size();
  std::vector<int64_t> i(dims, 0);
  for (int64_t n = 0; n < points_of(region); ++n) {
    int64_t ia = 0, ib = 0;
    for (std::size_t d = 0; d < dims; ++d) {
      const int64_t g = region.offset[d] + i[d];
      ia = ia * a.extent[d] + g - a.offset[d];
      ib = ib * b.extent[d] + g - b.offset[d];
    }
    f(ia, ib);
    for (int d = static_cast<int>(dims) - 1; d >= 0; --d) {
      if (++i[d] < region.extent[d])
        break;
      i[d] = 0;
    }
  }
}

} // namespace

std::vector<double> redistribute(const Communicator& world, const std::vector<double>& mine,
                                 const std::vector<Block>& from, const std::vector<Block>& to) {
  const int me = world.rank(), size = world.size();
  if (static_cast<int>(from.size()) != size || static_cast<int>(to.size()) != size ||
      static_cast<int64_t>(mine.size()) != points_of(from[me]))
    internal_error("a redistribution of blocks that do not match the ranks");
  std::vector<double> result(static_cast<std::size_t>(points_of(to[me])));
  std::vector<std::vector<double>> outgoing(size), incoming(size);
  Requests requests(world);
  for (int r = 0; r < size; ++r) {
    const Block receive = overlap(from[r], to[me]);
    if (r != me && points_of(receive) > 0) {
      incoming[r].resize(static_cast<std::size_t>(points_of(receive)));
      requests.receive(incoming[r].data(), incoming[r].size() * sizeof(double), r, kTag);
    }
  }
  for (int r = 0; r < size; ++r) {
    const Block send = overlap(from[me], to[r]);
    if (points_of(send) == 0)
      continue;
    if (r == me) { // this rank's own part: no message
      each_point(send, from[me], to[me], [&](int64_t a, int64_t b) { result[b] = mine[a]; });
      continue;
    }
    auto& packed = outgoing[r];
    each_point(send, from[me], send, [&](int64_t a, int64_t) { packed.push_back(mine[a]); });
    requests.send(packed.data(), packed.size() * sizeof(double), r, kTag);
  }
  requests.wait();
  for (int r = 0; r < size; ++r)
    if (!incoming[r].empty()) {
      const Block part = overlap(from[r], to[me]);
      each_point(part, part, to[me], [&](int64_t a, int64_t b) { result[b] = incoming[r][a]; });
    }
  return result;
}

} // namespace tessera::distributed
