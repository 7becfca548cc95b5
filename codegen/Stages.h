// Cutting a lowered program into stages, one kernel each.
//
// One kernel can compute a value with all work-items only if no work-item reads what another
// one computed in the same launch (OpenCL has no global barrier). A program whose data flow
// computes a whole array in parallel (MapGlb, MapWrg) and then reads it in another computation
// is therefore cut there: the array becomes an intermediate buffer written by one launch and
// read by the next. Iterate(k, f) with a parallel f is unrolled into k launches. Layout
// primitives (Pad, Slide, Zip, ...) between two computations stay views of the buffer.
//
//   MapGlb(g) o Slide o Pad $ (MapGlb(f) $ x)   ->   t0 = MapGlb(f) $ x;   MapGlb(g) o Slide o Pad
//   $ t0 Iterate(3, f) $ x                           ->   t0 = f $ x;  t1 = f $ t0;  f $ t1
#pragma once

#include <cstddef>
#include <vector>

#include "core/Expr.h"

namespace tessera::codegen {

// Where a stage reads an array from or writes it to.
struct BufferRef {
  enum Kind { ProgramInput, Intermediate, ProgramOutput } kind = ProgramInput;
  std::size_t index = 0; // ProgramInput: the input's position; Intermediate: the value's number
  bool operator==(const BufferRef&) const = default;
};

struct Stage {
  Expr program;                  // a lambda over typed parameters (inputs or intermediates)
  std::vector<BufferRef> inputs; // the source of each parameter
  BufferRef output;              // an intermediate value, or the program's output (last stage)
};

// The stages of a lowered program in execution order; the last one writes the program's output.
// A program without a cut is one stage (the program itself).
std::vector<Stage> split_into_stages(const Expr& program);

// True when e (a value or a function) computes an array with all work-items (MapGlb, MapWrg).
bool has_parallel_map(const Expr& e);

} // namespace tessera::codegen
