#include "compile/DeviceLimits.h"

#include <algorithm>

#include "runtime/DeviceTarget.h"

namespace tessera::explore {

namespace {

// On a CPU (PoCL) a work-item's inner loop is what the compiler vectorises: coarsening by the
// vector width (16 floats with AVX-512) and twice it gives loops of whole vectors, where factors
// of 2 and 4 give a quarter vector at most.
// The same factors block a march of partial sums along y there (the 125-point box at 64^3 on
// PoCL: 4.9 -> 3.05 ms from 1 to 16 rows).
void add_cpu_coarsening(rewrite::EnumerateOptions& options) {
  for (auto* list : {&options.coarsening, &options.row_blocking})
    for (int64_t factor : {8, 16, 32})
      if (std::find(list->begin(), list->end(), factor) == list->end())
        list->push_back(factor);
}

// On a GPU the partial sums by plane win from windows of 13 points once blocked along y (an
// H200 at 512^3: the radius-2 star, 13 points, 0.418 -> 0.388 ms and the radius-3 star, 19,
// 0.530 -> 0.452 against their coarsened lowering; the 27-point box 0.629 -> 0.384, the
// radius-4 star 0.668 -> 0.495). j3d7pt's 7 points stay below (its blocked sums 70% of copy
// against the coarsened lowering's 73%); the 2-D radius-4 star's, 17, tie with its streaming.
// On a CPU (PoCL) they win from 27 points once blocked along x by whole vectors: j3d27pt's sums
// at 16 results a step 30.8-32.0 ms at 320^3 against 41-46 ms for its split launch (blocked
// along y they took 105-159 ms); below, the 19-point Poisson stencil is not a sum of planes.
constexpr int64_t kGpuPlaneSumsMinPoints = 13;
constexpr int64_t kCpuPlaneSumsMinPoints = 27;

} // namespace

void apply_device_limits(rewrite::EnumerateOptions& options, const runtime::Device& device) {
  options.target = runtime::target_of(device);
  if (options.target.cpu()) {
    add_cpu_coarsening(options);
    options.plane_sums_min_points = std::min(options.plane_sums_min_points, kCpuPlaneSumsMinPoints);
  } else
    options.plane_sums_min_points = std::min(options.plane_sums_min_points, kGpuPlaneSumsMinPoints);
}

void apply_device_limits(rewrite::EnumerateOptions& options,
                         const std::vector<runtime::Device>& devices) {
  if (devices.empty())
    return;
  const int64_t sums_min_points = options.plane_sums_min_points;
  apply_device_limits(options, devices.front());
  for (const auto& d : devices) {
    options.target = common_target(options.target, runtime::target_of(d));
    if (runtime::target_of(d).cpu()) // shared with a CPU: the CPU's threshold
      options.plane_sums_min_points = std::min(sums_min_points, kCpuPlaneSumsMinPoints);
  }
}

} // namespace tessera::explore
