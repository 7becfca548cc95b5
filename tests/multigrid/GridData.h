// Random grids of a multigrid level, their conversion to the interpreter's Data, and their
// upload into a solver's device memory.
#pragma once

#include <cstdint>
#include <vector>

#include "core/Data.h"
#include "multigrid/Layout.h"
#include "multigrid/Operators.h"
#include "multigrid/Program.h"
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
  return Data::from_flat(level.kind, level.sizes(), grid);
}

// Grids of a level in device buffers ("input 0", ...) and as the interpreter's inputs.
struct UploadedGrids {
  std::vector<multigrid::BufferId> buffers;
  std::vector<Data> data;
};
inline UploadedGrids upload(multigrid::DeviceMemory& memory, const multigrid::Level& level,
                            const std::vector<std::vector<double>>& grids) {
  UploadedGrids up;
  for (std::size_t i = 0; i < grids.size(); ++i) {
    up.buffers.push_back(memory.allocate(cat("input ", i), level.kind, level.points()));
    multigrid::write_values(memory, up.buffers.back(), grids[i]);
    up.data.push_back(to_data(grids[i], level));
  }
  return up;
}

} // namespace tessera::testing::mg
