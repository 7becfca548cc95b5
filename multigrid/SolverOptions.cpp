// The solver's option types: their names, and the values derived from them (the coarse levels'
// one launch, the mean convergence factor of a result).
#include "multigrid/Solver.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace tessera::multigrid {

const char* to_string(CycleKind c) {
  switch (c) {
  case CycleKind::V:
    return "V";
  case CycleKind::W:
    return "W";
  case CycleKind::F:
    return "F";
  }
  return "?";
}
const char* to_string(SmootherKind s) {
  switch (s) {
  case SmootherKind::GaussSeidel:
    return "gsrb";
  case SmootherKind::Jacobi:
    return "jacobi";
  case SmootherKind::LineX:
    return "line-x";
  case SmootherKind::LineY:
    return "line-y";
  case SmootherKind::LineZ:
    return "line-z";
  }
  return "?";
}
const char* to_string(Precision p) {
  switch (p) {
  case Precision::F64:
    return "f64";
  case Precision::F32:
    return "f32";
  case Precision::Mixed:
    return "mixed";
  }
  return "?";
}

double SolveResult::mean_factor() const {
  double log_sum = 0;
  int count = 0;
  for (std::size_t i = 1; i < cycles.size(); ++i)
    if (cycles[i].factor > 0) {
      log_sum += std::log(cycles[i].factor);
      ++count;
    }
  return count ? std::exp(log_sum / count) : 0;
}

int64_t coarse_launch_points(int64_t side, const std::string& device_type, int dims) {
  if (side < 0)
    side = device_type == "GPU" ? kCoarseLaunchSideGpu : kCoarseLaunchSideCpu;
  int64_t points = side > 0 ? 1 : 0;
  for (int d = 0; d < dims && side > 0; ++d)
    points *= side;
  return points;
}

bool coarse_launch_side_measured(const SolverOptions& o) {
  return o.coarse_launch_side == kCoarseLaunchMeasure ||
         (o.coarse_launch_side == -1 && o.tuning.mode == TuneMode::Explore);
}

int64_t most_coarse_launch_points(const SolverOptions& o, const std::string& device_type,
                                  int dims) {
  int64_t side = o.coarse_launch_side;
  if (coarse_launch_side_measured(o))
    side =
        *std::max_element(std::begin(kCoarseLaunchCandidates), std::end(kCoarseLaunchCandidates));
  return coarse_launch_points(side, device_type, dims);
}

} // namespace tessera::multigrid
