// What the benchmarks of HPGMG-FV's 4th-order kernels share (interior_bench, fv4_step_bench):
// its benchmark's coefficients, grids of positive random values, and the median time of a
// schedule of repeated launches.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "multigrid/Helmholtz.h"
#include "multigrid/Layout.h"
#include "multigrid/Program.h"

namespace tessera::bench {

// HPGMG-FV's benchmark operator: a = 0, b = 1, its Dirichlet form of order 4.
inline multigrid::HelmholtzCoefficients hpgmg_fv4_coefficients() {
  multigrid::HelmholtzCoefficients c;
  c.a = 0;
  c.b = 1;
  c.quadratic_dirichlet = true;
  c.outer_beta = 1;
  c.order = 4;
  return c;
}

// An f64 grid of `points` named `name`, values in [0.5, 1.5) (positive, as the operator's
// coefficients are) from the generator state `seed`, which it advances.
inline multigrid::BufferId positive_grid(multigrid::DeviceMemory& memory, const std::string& name,
                                         int64_t points, uint32_t& seed) {
  const multigrid::BufferId id = memory.allocate(name, ScalarKind::F64, points);
  std::vector<double> values(static_cast<std::size_t>(points));
  for (double& v : values) {
    seed = seed * 1664525u + 1013904223u;
    v = 0.5 + static_cast<double>(seed >> 8) / static_cast<double>(1u << 24);
  }
  multigrid::write_values(memory, id, values);
  return id;
}

// The median device time of one launch over 5 runs of `schedule`, `launches` launches each
// (a run before them builds the kernels and launches them first).
inline double median_launch_ms(const multigrid::Schedule& schedule, multigrid::DeviceMemory& memory,
                               int launches) {
  schedule.run(memory);
  std::vector<double> ms;
  for (int r = 0; r < 5; ++r)
    ms.push_back(schedule.run(memory) / launches);
  std::sort(ms.begin(), ms.end());
  return ms[2];
}

} // namespace tessera::bench
