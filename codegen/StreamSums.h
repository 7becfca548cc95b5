// The form of a march's step that the code generator streams as partial sums by plane
// (rewrite/rules/PlaneSums.h writes it):
//   fun(w => [s](sum(f_a(At(..) o At(a) $ w, ..), ..)))
// sum's body is p0 + p1 + ... in order, each f_a reads the points of one plane a of the window
// (planes increasing), s (optional) is a function of one value; or c such steps along y (below).
#pragma once

#include <optional>
#include <vector>

#include "core/Expr.h"

namespace tessera::codegen {

struct PlaneTerm {
  const Node* function = nullptr;           // the UserFun f_a
  int64_t plane = 0;                        // a
  std::vector<std::vector<int64_t>> points; // per argument: its indices inside the plane
};

struct PlaneSumStep {
  std::vector<PlaneTerm> terms; // in plane order
  const Node* scale = nullptr;  // the UserFun s, or null
  // Register blocking: the step computes c outputs along the plane's axis `blocked_axis`, each
  // the sum over the window shifted by its index: along axis 0 (stream-nd rows=c in 3-D, y;
  // factor=c in 2-D, x)
  //   w => Map(fun(w' => [s](sum(..)))) $ Transpose $ Map(Slide(n,1)) $ w
  // with w's planes n + c - 1 long on that axis; along axis 1 (factor=c in 3-D, x)
  //   w => Map(..) $ Transpose $ Map(Transpose) $ Map(Map(Slide(n,1))) $ w
  // The window's extent n on the blocked axis and the axis when blocked, else 0 and -1.
  int64_t blocked_window = 0;
  int blocked_axis = -1;
};

// The step function `f` in either form, or nothing.
std::optional<PlaneSumStep> plane_sum_step(const Expr& f);

} // namespace tessera::codegen
