// Random grids of a multigrid level and their conversion to the interpreter's Data.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Data.h"
#include "multigrid/Operators.h"
#include "tests/Helpers.h"

namespace tessera::testing::mg {

// Values in [shift - 1, shift + 1), rounded to the level's precision (so that the loops and the
// kernels start from the same numbers).
inline std::vector<double> random_grid(const multigrid::Level& level, uint32_t seed,
                                       double shift = 0) {
  auto v = random_values(static_cast<std::size_t>(level.points()), seed);
  for (auto& x : v)
    x = level.kind == ScalarKind::F32 ? static_cast<float>(x + shift) : x + shift;
  return v;
}

// A level's grid as the interpreter's input.
inline Data to_data(const std::vector<double>& grid, const multigrid::Level& level) {
  return Data::from_flat(level.kind, std::vector<int64_t>(level.dims, level.n), grid);
}

} // namespace tessera::testing::mg
