// Vector operations on device buffers through CLBlast (its Nrm2, Asum, Dot and Axpy routines), for
// f32 and f64 buffers of the memory plan. Results come back through a small scratch buffer.
#pragma once

#include "multigrid/Program.h"

namespace tessera::multigrid {

class Blas {
public:
  explicit Blas(DeviceMemory& memory);
  double nrm2(BufferId x);
  // Of the `count` elements of x from `first` on.
  double nrm2(BufferId x, std::size_t first, std::size_t count);
  // The sum of the absolute values of x's elements.
  double asum(BufferId x);
  double dot(BufferId x, BufferId y);
  // y += alpha * x
  void axpy(double alpha, BufferId x, BufferId y);

private:
  void check_pair(BufferId x, BufferId y, const char* routine) const;
  double read_scratch(ScalarKind kind);
  DeviceMemory* memory_;
  BufferId scratch_; // one f64 (or f32) result
};

} // namespace tessera::multigrid
