// A program of kernels for the runner's and the workload's tests: `steps` smoothing steps of a
// 1-D grid of n points (mirror boundary), one launch per step in the default lowering.
#pragma once

#include "dsl/Dsl.h"

namespace tessera::testing {

inline Expr smoothed(ArithExpr n, int steps) {
  auto average = user_fun("average3", [](auto a, auto b, auto c) { return (a + b + c) / 3.0f; });
  Fun step = pad(1, 1, mirror) >> slide(3, 1) >>
             map([=](Val w) { return average(w.at(0), w.at(1), w.at(2)); });
  Val x = input("x", Type::array(f32(), n));
  return program({x}, x | iterate(steps, step));
}

} // namespace tessera::testing
