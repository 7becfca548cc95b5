// The coarse levels of a cycle as one launch. A cycle's schedule (Program.h) spends most of its
// steps on levels of a few thousand points, where a launch costs more than its work. Every run of
// consecutive steps that touch only small buffers (the smoothing, residual, restriction, coarse
// solve and correction of every level at or below a threshold) becomes one kernel of one
// work-group: each step's generated kernel is called as a function of one point (its per-point
// body, get_global_id replaced by an argument) in a loop of the work-group's items over the
// step's points, a barrier (global memory fence) between steps. Fills and copies are loops of
// their own. The same operators in the same order: the same values as the separate launches.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>

#include "multigrid/PointFunctions.h"
#include "multigrid/Program.h"

namespace tessera::multigrid {

// The steps [first, last) of a schedule as the source of one kernel of one work-group, its
// parameters the buffers in `buffers` (filled in, in order); "" and `why_not` set when a step
// cannot be part of it.
std::string one_launch_source(const std::vector<Schedule::Step>& steps, std::size_t first,
                              std::size_t last, const DeviceMemory& memory,
                              const std::string& kernel_name, std::vector<BufferId>& buffers,
                              std::string& why_not);

// The most OpenCL source one launch may have. A device compiler's time grows faster than its
// source: HPGMG-FV's 4th-order operators (every boundary extrapolation in each kernel) made
// one-launch sources of 0.3-1.5 MB at 16^3, which PoCL built in minutes and an H200's driver had
// not built after 170 s; the largest 2nd-order cycle measured (hpgmg3d at 32^3) is 145 KB.
constexpr std::size_t kOneLaunchSourceLimit = 256 * 1024;

class CoarseCycle {
public:
  // Steps whose buffers all have at most `max_points` elements are small (0: none is); a run
  // whose one launch would have more than `max_source_bytes` of source keeps its launches.
  CoarseCycle(runtime::Session& session, int64_t max_points,
              std::size_t max_source_bytes = kOneLaunchSourceLimit);

  // `s` with every run of at least two consecutive small steps replaced by one launch labelled
  // "coarse levels"; a step or run the fused form does not apply to stays as it was (why_not()
  // says why, for the last such of this call). Kernels are built once per source, so a schedule
  // built again costs no build.
  Schedule fuse(const Schedule& s, const DeviceMemory& memory);
  const std::string& why_not() const { return why_not_; }
  int64_t max_points() const { return max_points_; }
  // Runs fused by the last fuse(), and the steps they replaced.
  int fused_runs() const { return fused_runs_; }
  int fused_steps() const { return fused_steps_; }

private:
  std::shared_ptr<CompiledKernel> build(const std::string& source, const std::string& name,
                                        const std::vector<BufferId>& buffers,
                                        const DeviceMemory& memory);
  // Whether the step touches only small buffers and can be part of one launch (why_not_ set
  // where a small step cannot).
  bool small(const Schedule::Step& step, const DeviceMemory& memory);

  runtime::Session* session_;
  int64_t max_points_;
  std::size_t max_source_bytes_;
  std::map<std::string, std::shared_ptr<CompiledKernel>> built_; // by source
  std::string why_not_;
  int fused_runs_ = 0, fused_steps_ = 0;
};

} // namespace tessera::multigrid
