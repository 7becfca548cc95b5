#include "multigrid/BoxNesting.h"

#include <algorithm>

#include "core/Error.h"

namespace tessera::multigrid::detail {

int64_t halo_below(const Level& level, int k) {
  return level.halo_lo.empty() ? 0 : level.halo_lo.at(k);
}

int64_t halo_above(const Level& level, int k) {
  return level.halo_hi.empty() ? 0 : level.halo_hi.at(k);
}

Fun along(int k, Fun f) {
  return k == 0 ? f : map_nd(k, std::move(f));
}

std::pair<int64_t, int64_t> refined_excess(const Level& coarse, const Level& fine, int k) {
  return {2 * halo_below(coarse, k) - halo_below(fine, k),
          2 * halo_above(coarse, k) - halo_above(fine, k)};
}

Val trim(Val grid, int k, int64_t lo, int64_t hi) {
  if (lo < 0 || hi < 0)
    grid = grid | along(k, pad(std::max<int64_t>(-lo, 0), std::max<int64_t>(-hi, 0), clamp));
  if (lo > 0 || hi > 0)
    grid = grid | along(k, drop(std::max<int64_t>(lo, 0), std::max<int64_t>(hi, 0)));
  return grid;
}

void check_boxes(const Level& coarse, const Level& fine) {
  if (coarse.box.empty() != fine.box.empty())
    internal_error("a transfer between a rank's box and a whole grid");
  for (int k = 0; k < static_cast<int>(coarse.box.size()); ++k) {
    const auto [lo, hi] = refined_excess(coarse, fine, k);
    const bool sides_agree = (halo_below(coarse, k) == 0) == (halo_below(fine, k) == 0) &&
                             (halo_above(coarse, k) == 0) == (halo_above(fine, k) == 0);
    if (!sides_agree || 2 * coarse.box[k] - lo - hi != fine.box[k])
      internal_error(cat("a transfer between boxes that do not nest: coarse ", coarse.describe(),
                         ", fine ", fine.describe()));
  }
}

Val children_of_coarse_box(Val fine_grid, const Level& coarse, const Level& fine) {
  check_boxes(coarse, fine);
  // The children of the coarse box's first point start 2 hc below the fine block, hf below the
  // fine box's first point: the box padded (or cut) by the difference on each side.
  for (int k = 0; k < static_cast<int>(fine.box.size()); ++k) {
    const auto [lo, hi] = refined_excess(coarse, fine, k);
    fine_grid = trim(fine_grid, k, -lo, -hi);
  }
  return fine_grid;
}

Level finer_box(const Level& coarse) {
  Level fine = coarse;
  fine.n = coarse.centring == Centring::Cell ? 2 * coarse.n : 2 * coarse.n + 1;
  for (std::size_t k = 0; k < coarse.box.size(); ++k)
    fine.box[k] = 2 * coarse.box[k] - halo_below(coarse, static_cast<int>(k)) -
                  halo_above(coarse, static_cast<int>(k));
  return fine;
}

} // namespace tessera::multigrid::detail
