// A split launch: a plain kernel's interior as a kernel of its own, without the boundary
// conditionals, launched on the points `margin` or more from every end of the range, and the
// whole kernel launched on the slabs around it. On a CPU the interior/boundary branch keeps
// PoCL's vectoriser from running the work-item loop in SIMD lanes; without it the interior of a
// 27-point box ran 8x faster on PoCL (BENCHMARKS.md). The multigrid schedule splits its
// operators the same way (multigrid/Program.h).
#pragma once

#include <cstdint>
#include <vector>

#include "codegen/Program.h"

namespace tessera::codegen {

// A part of a launch range: `extent` work-items per dimension from `offset` (OpenCL's x first).
struct LaunchPart {
  std::vector<int64_t> offset, extent;
};

// A CPU runs a split launch's interior in work-groups of whole rows along x, which must divide
// it (OpenCL 1.2): a row of 5752 = 8 x 719 ran gaussian's interior in groups of 8 work-items,
// slower than the whole kernel. Rows of up to kLongestRow are one group; a longer one is cut to
// the longest row at most `extent` that a group of kShortestRow..kLongestRow work-items divides.
constexpr int64_t kShortestRow = 64, kLongestRow = 512;
int64_t interior_row(int64_t extent);

// The interior of `global` (`margin` or more from every end; first) and the 2 slabs along each
// dimension around it, from the outermost dimension in: a slab spans the interior along the
// dimensions outside its own and the whole range along those inside. With `whole_rows` the
// interior's rows are interior_row's, the upper x slab taking the rest. Together they cover the
// range once. Error where the range has no interior (an extent below 2 margin + 1).
std::vector<LaunchPart> interior_and_slabs(const std::vector<int64_t>& global, int64_t margin,
                                           bool whole_rows = false);

// The program of a split launch of a lowered program that is one plain kernel (one work-item per
// point, every axis a MapGlb, no work-group size) of constant global sizes: its kernels are the
// interior (named options.kernel_name + "_interior") and the whole kernel; its launches the
// interior, then the slabs. Error naming why where the program has no such split.
KernelProgram generate_split_program(const Expr& program, const CodegenOptions& options = {});

} // namespace tessera::codegen
