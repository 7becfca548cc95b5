#include "codegen/TimeTileGeometry.h"

#include <algorithm>

#include "core/Error.h"

namespace tessera::codegen {

TimeTileGeometry::TimeTileGeometry(const TimeTiling& t, Boundary b, const std::vector<int64_t>& ext)
    : tiling(t), boundary(b), d(t.dims), r(t.radius), wrap(b.kind == Boundary::Wrap) {
  if (static_cast<int>(ext.size()) != d)
    user_error(
        cat("a time-tiled program of ", d, " dimensions needs ", d, " extents, got ", ext.size()));
  const int64_t h = t.band;
  for (int l = 0; l < d; ++l) {
    N[l] = ext[static_cast<std::size_t>(l)];
    W[l] = t.tile[static_cast<std::size_t>(l)];
    // Inner tiles lose h r on each side over a band (diamond) or pass 2r to their neighbour
    // at every level (parallelogram): narrower tiles would leave gaps.
    if (W[l] < 2 * h * r)
      user_error(cat(scheme_name(t.scheme), " tiling: the tile width ", W[l], " of dimension ", l,
                     " must be at least 2 x band x radius = ", 2 * h * r));
    if (wrap && N[l] < 2 * h * r)
      user_error(cat(scheme_name(t.scheme), " tiling of a periodic grid: the extent ", N[l],
                     " of dimension ", l, " must be at least 2 x band x radius = ", 2 * h * r));
    m[l] = std::max<int64_t>(1, N[l] / W[l]);
    if (N[l] > m[l] * W[l] && N[l] - m[l] * W[l] >= 2 * h * r)
      ++m[l]; // a remainder wide enough is a tile of its own
  }
}

std::pair<int64_t, int64_t> TimeTileGeometry::diamond_range(int l, bool down, int64_t i,
                                                            int64_t t) const {
  if (down) {
    int64_t c = wrap ? tile_lo(l, i) : tile_lo(l, i + 1);
    return {c - t * r, c + t * r};
  }
  int64_t lo = tile_lo(l, i) + (wrap || i > 0 ? t * r : 0);
  int64_t hi = tile_hi(l, i) - (wrap || i < m[l] - 1 ? t * r : 0);
  return {lo, hi};
}

std::pair<int64_t, int64_t> TimeTileGeometry::parallelogram_range(int l, int64_t i,
                                                                  int64_t t) const {
  int64_t lo = i == 0 ? (wrap ? t * r : 0) : tile_lo(l, i) - t * r;
  int64_t hi = i == m[l] - 1 ? N[l] + (wrap ? t * r : 0) : tile_hi(l, i) - t * r;
  return {lo, hi};
}

std::array<int64_t, 3> TimeTileGeometry::box(int phase, int64_t h) const {
  std::array<int64_t, 3> widest{1, 1, 1};
  for (int l = 0; l < d; ++l) {
    bool down = phase >= 0 && (phase >> l & 1);
    int64_t count = phase >= 0 ? diamond_tiles(l, down) : m[l];
    int64_t w = 1;
    for (int64_t i = 0; i < count; ++i)
      for (int64_t t = 1; t <= h; ++t) {
        auto [lo, hi] = phase >= 0 ? diamond_range(l, down, i, t) : parallelogram_range(l, i, t);
        w = std::max(w, hi - lo + 2 * r);
      }
    widest[l] = w;
  }
  return widest;
}

int64_t TimeTileGeometry::evaluations(int64_t h) const {
  int64_t total = 0;
  auto width = [](std::pair<int64_t, int64_t> range) {
    return std::max<int64_t>(0, range.second - range.first);
  };
  for (int64_t t = 1; t <= h; ++t) {
    if (tiling.scheme == TimeTileScheme::Parallelogram) {
      int64_t level = 1;
      for (int l = 0; l < d; ++l) {
        int64_t sum = 0;
        for (int64_t i = 0; i < m[l]; ++i)
          sum += width(parallelogram_range(l, i, t));
        level *= sum;
      }
      total += level;
      continue;
    }
    for (int phase = 0; phase < (1 << d); ++phase) {
      int64_t level = 1;
      for (int l = 0; l < d; ++l) {
        bool down = phase >> l & 1;
        int64_t sum = 0;
        for (int64_t i = 0; i < diamond_tiles(l, down); ++i)
          sum += width(diamond_range(l, down, i, t));
        level *= sum;
      }
      total += level;
    }
  }
  return total;
}

int64_t TimeTileGeometry::edge_slot_points(int l) const {
  int64_t points = 4 * r;
  for (int other = 0; other < d; ++other)
    if (other != l)
      points *= N[other];
  return points;
}

int64_t TimeTileGeometry::edge_level_points(int l) const {
  return m[l] * edge_slot_points(l);
}

int64_t TimeTileGeometry::edge_offset(int l, int64_t h) const {
  int64_t offset = 0;
  for (int before = 0; before < l; ++before)
    offset += (h - 1) * edge_level_points(before);
  return offset;
}

int64_t TimeTileGeometry::edge_points(int64_t h) const {
  return edge_offset(d, h);
}

} // namespace tessera::codegen
