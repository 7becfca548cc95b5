// Generated kernels as functions of one point, for kernels written around them (the coarse
// levels in one launch, CoarseCycle.h; the update a wavefront calls, Wavefront.h): a plain
// lowering's body computes the point whose global ids it reads, so with the ids as arguments it
// is a function another kernel can call for any point, in any order.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "codegen/Kernel.h"

namespace tessera::multigrid {

// Why `code` cannot be called as a function of one point ("" when it can): a kernel of
// work-groups (local memory, barriers, local ids), images, __constant arguments.
std::string point_function_why_not(const codegen::Kernel& code);

// Kernels' point functions and the helpers they call, for one OpenCL source: a kernel `k`
// becomes `void name(k's parameters..., int tc_g0, int tc_g1, int tc_g2)`. Helpers two kernels
// define alike are defined once; a helper defined differently (a level's own constants) is
// renamed in the kernel that brings it.
class PointFunctions {
public:
  // The name of `code`'s function (added on its first call; `key` identifies the kernel).
  // `code` must be a point function (point_function_why_not).
  const std::string& add(const void* key, const codegen::Kernel& code);
  // The helpers the added kernels call (their user functions), in the order of first use.
  std::string helpers() const;
  // The helpers, then the functions, in the order they were added.
  std::string source() const;

private:
  std::vector<std::string> helpers_;                // in order of first use
  std::map<std::string, std::string> helper_named_; // a helper's name: its text
  std::map<const void*, std::string> names_;        // a kernel: its function's name
  std::string definitions_;
};

} // namespace tessera::multigrid
