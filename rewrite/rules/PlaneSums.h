// Partial sums by plane: a window function that is a sum of terms, each reading the points of
// one plane of the window (its outermost index), rewritten into one user function per plane and
// a sum of their results, so that the code generator of a march (codegen/StreamSums.cpp) can add
// each plane's contribution to the outputs whose windows contain it as the plane streams by:
//   fun(w => f(w[0][..], .., w[n-1][..]))   with f = s(t_1 + t_2 + ...)
//     -> fun(w => s(sum(f_0(w[0][..]), .., f_{n-1}(w[n-1][..]))))
// f_a adds the terms of plane a in their order, sum adds the planes' results in plane order and
// s is the outer scaling of f (x / c or x * c), when f has one. Exact up to rounding: the terms
// are regrouped by plane (a - b is added as a + (-b), which is exact).
#pragma once

#include <optional>
#include <string>

#include "core/Expr.h"

namespace tessera::rewrite {

struct PlaneSplit {
  Expr function;   // the rewritten window function
  std::string why; // why not, when `function` is null
};

// `f` (a lambda of one window parameter whose body calls one user function on points of the
// window, At(..) o .. o At(plane) $ w) split by plane; floating-point windows only.
PlaneSplit split_by_plane(const Expr& f);

// The number of arguments of the user function that the window function `f` calls (0 when it
// is not of that form): the points it reads.
int64_t window_points(const Expr& f);

} // namespace tessera::rewrite
