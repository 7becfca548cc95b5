// One step of a stencil as the temporal rules match it:
//   S(a) = Map^d(f) $ SlideND(2r+1, 1) $ PadND(r, r, b) $ a                    (d = 1, 2, 3)
// optionally with constant inputs zipped to the neighbourhoods (ZipND(windows, c..)), and
// chains of k such steps written as nested calls (stencils::iterated_stencil builds them).
#pragma once

#include <optional>
#include <vector>

#include "rewrite/Rule.h"

namespace tessera::rewrite {

struct StencilStep {
  int d = 0;
  Expr f;                   // applied to each neighbourhood (or tuple with the constants)
  ArithExpr n, r;           // window 2r+1, padding r on both sides
  Boundary boundary;        // the padding's boundary
  Expr input;               // a: the grid the step reads
  std::vector<Expr> consts; // inputs zipped to the neighbourhoods
  Expr windows;             // the step's argument: the neighbourhoods (zipped with consts)
};

// The step `e` computes, if it is one.
std::optional<StencilStep> match_step(const Expr& e);
// How alike the steps of a chain are:
//   Equal          the same function, radius, boundary and constants;
//   EqualButConsts as many constants, which may differ (red-black masks);
//   SameShape      the same radius, boundary kind and constants; the function and a constant
//                  boundary's value may differ (the passes of separate-axes).
enum class StepsAlike { Equal, EqualButConsts, SameShape };
bool steps_alike(const StencilStep& a, const StencilStep& b, StepsAlike alike);
// The chain of at most `most` alike steps ending at e (outermost first); empty if e is no step.
std::vector<StencilStep> match_steps(const Expr& e, std::size_t most,
                                     StepsAlike alike = StepsAlike::Equal);
// The d outer extents of a type.
std::vector<ArithExpr> extents_of(const Type& t, int d);

// stream-temporal (StreamTemporal.cpp): k steps fused by 2.5-D blocking.
Rule stream_temporal_rule();

} // namespace tessera::rewrite
