// The levels of one precision with their buffers and kernels, and the cycles as schedules over
// them. Which of a level's two solution buffers holds u is tracked while a schedule is built
// (a kernel never reads and writes the same buffer), so a schedule is valid for the parity it
// was built from.
#pragma once

#include <array>
#include <vector>

#include "multigrid/Program.h"
#include "multigrid/Tuning.h"

namespace tessera::multigrid {

struct SolverOptions;
enum class CycleKind;

struct LevelState {
  Level level;
  std::array<BufferId, 2> u; // ping-pong
  BufferId f, r;
  int current = 0; // which u holds the solution (while a schedule is built)
  std::array<std::shared_ptr<CompiledKernel>, 2> smooth; // red/black half-sweeps, or [0] Jacobi
  std::shared_ptr<CompiledKernel> residual;
  std::shared_ptr<CompiledKernel> restrict_to_coarser;  // none on the coarsest level
  std::shared_ptr<CompiledKernel> correct_from_coarser; // u + P e; none on the coarsest level
  BufferId solution() const { return u[current]; }
};

class Hierarchy {
public:
  // Levels from `finest` down while the grid coarsens and has more than options.coarsest
  // points per side; buffers from `memory`, kernels from `tuner`.
  Hierarchy(const Level& finest, Boundary bc, const SolverOptions& options, DeviceMemory& memory,
            Tuner& tuner);

  std::vector<LevelState>& levels() { return levels_; }
  LevelState& finest() { return levels_.front(); }

  // Appends to `s`: one V- or W-cycle at level l; full multigrid (the right-hand side
  // restricted to every level, the coarsest solved, then per level upwards the solution
  // interpolated and one V-cycle); the residual of level l into its r; smoothing steps.
  void cycle(Schedule& s, std::size_t l, CycleKind kind);
  void full_multigrid(Schedule& s);
  void residual(Schedule& s, std::size_t l);
  void smooth(Schedule& s, std::size_t l, int steps);

private:
  void correct(Schedule& s, std::size_t l);

  std::vector<LevelState> levels_;
  const SolverOptions* options_;
};

} // namespace tessera::multigrid
