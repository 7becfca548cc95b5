// Where the grids of a hierarchy live. The default layout is the whole grid on this device. A
// distributed layout (distributed/MultigridLayout.h) gives each level's kernels one rank's block
// of the grid with its halos, and adds the steps a distributed grid needs to the cycles the
// hierarchy builds: halo exchanges before a kernel reads neighbours, and the coarse levels
// solved on another rank (agglomeration). The hierarchy and the solver are the same code for
// both: operators, levels, cycles and the stopping rules are written once.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "multigrid/Operators.h"
#include "multigrid/Program.h"

namespace tessera::multigrid {

class Blas;
struct LevelState;
enum class CycleKind;

// A host grid into a device buffer and back, converting to and from the buffer's kind.
void write_values(DeviceMemory& memory, BufferId id, const std::vector<double>& values);
std::vector<double> read_values(DeviceMemory& memory, BufferId id);

// What a kernel of level l reads: a buffer of its own level, of the next coarser one
// (interpolation) or of the next finer one (restriction), and how many points around the ones
// the kernel computes from (in that buffer's own grid).
struct Read {
  enum class Level { Same, Coarser, Finer };
  BufferId buffer;
  Level level = Level::Same;
  int radius = 0;
};

class Layout {
public:
  virtual ~Layout() = default;
  virtual bool distributed() const { return false; }
  // The grid the kernels of level l run on (`global` is the whole level): the level itself, or
  // a box of it (Level::box).
  virtual Level local(const Level& global, std::size_t /*l*/) const { return global; }
  // The parity of the global index sum of the local grid's first point: red-black colours
  // are global, a kernel's index is local.
  virtual int colour_shift(std::size_t /*l*/) const { return 0; }
  // Whether level l is solved elsewhere: it keeps its buffers (u and f), has no kernels, and
  // coarse_cycle replaces its cycle.
  virtual bool agglomerated(std::size_t /*l*/) const { return false; }
  // Appends a kernel of level l that reads `reads` and writes `output` (the whole grid of its
  // level: its box on a rank). A distributed layout appends before it the halo exchanges that
  // make its reads exact where it reads them, and records how deep its output is exact.
  virtual void launch(Schedule& s, std::size_t l, const std::string& label,
                      std::shared_ptr<CompiledKernel> kernel, const std::vector<Read>& reads,
                      BufferId output);
  // Appends a red-black half-sweep of level l, as launch does: a kernel that updates the points
  // of global colour `colour` alone, each from itself and points of the other colour of the
  // solution (reads[0]; a 2nd-order operator), the others keeping the solution's values in
  // `output`. A distributed layout then exchanges one colour where the other is still exact.
  virtual void launch_half_sweep(Schedule& s, std::size_t l, const std::string& label,
                                 std::shared_ptr<CompiledKernel> kernel,
                                 const std::vector<Read>& reads, BufferId output, int colour);
  // Whether the solver builds every kernel in its set-up instead of at first launch: the ranks
  // of a distributed solve agree on set-up failures (one message on every rank), and a build
  // failing later on one rank would leave the others waiting in an exchange.
  virtual bool builds_in_set_up() const { return false; }
  // Appends zeros into `buffer` of level l.
  virtual void fill_zero(Schedule& s, std::size_t l, const std::string& label, BufferId buffer);
  // Appends the cycle `kind` (F: full multigrid from this level) of an agglomerated level:
  // from its f and its solution buffer to the new solution in the same buffer. With
  // `zero_start` the solution buffer holds zeros (a cycle's first coarse correction) and is not
  // moved; an F-cycle never reads it.
  virtual void coarse_cycle(Schedule& s, std::size_t l, const LevelState& level, CycleKind kind,
                            bool zero_start);

  // The global grid `values` (every process has it) into level l's buffer; its whole grid back
  // (a distributed layout: on rank 0, empty elsewhere); its 2-norm over the whole grid.
  virtual void write(DeviceMemory& memory, BufferId id, std::size_t l,
                     const std::vector<double>& values);
  virtual std::vector<double> read(DeviceMemory& memory, BufferId id, std::size_t l);
  virtual double norm(DeviceMemory& memory, BufferId id, std::size_t l, Blas& blas);
  // Cycle 1 starts: what the warm-up before it (Solver::solve) did is not counted (halo bytes).
  virtual void start_counting() {}
};

} // namespace tessera::multigrid
