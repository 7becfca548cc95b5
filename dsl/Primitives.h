// Front-end constructors for every primitive, in data-flow style:
//   x | pad(1, 1, clamp) | slide(3, 1) | map([](Val nbh) { return nbh | reduce(add, 0.0f); })
// and the n-dimensional forms (map_nd, slide_nd, pad_nd, drop_nd, zip_nd, split_nd), which are
// compositions of the 1-D primitives with Map and Transpose.
#pragma once

#include <source_location>
#include <vector>

#include "dsl/Val.h"

namespace tessera {

using Loc = std::source_location;

// Boundary kinds for pad().
inline const Boundary clamp = Boundary::clamp();
inline const Boundary mirror = Boundary::mirror();
inline const Boundary wrap = Boundary::wrap();
inline const Boundary antisymmetric = Boundary::antisymmetric(); // mirror, negated outside
Boundary constant(float value);
Boundary constant(double value);
Boundary constant(int value);

Fun map(Fun f, Loc loc = Loc::current());
Fun map_glb(int dim, Fun f, Loc loc = Loc::current());
Fun map_wrg(int dim, Fun f, Loc loc = Loc::current());
Fun map_lcl(int dim, Fun f, Loc loc = Loc::current());
Fun map_seq(Fun f, Loc loc = Loc::current());
Fun map_seq_unroll(Fun f, Loc loc = Loc::current());
Fun map_kind(MapKind kind, int dim, Fun f, Loc loc = Loc::current());

Fun reduce(Fun f, Val init, Loc loc = Loc::current());
Fun reduce_seq(Fun f, Val init, Loc loc = Loc::current());
Fun reduce_seq_unroll(Fun f, Val init, Loc loc = Loc::current());

// A sequential recurrence along an array (primitives/Scan.cpp): out[i] = s = f(s, x[i]) from
// s = init, first to last element (scan) or last to first (scan_backward).
Fun scan(Fun f, Val init, Loc loc = Loc::current());
Fun scan_backward(Fun f, Val init, Loc loc = Loc::current());

Val zip(const std::vector<Val>& arrays, Loc loc = Loc::current());
Fun split(ArithExpr chunk, Loc loc = Loc::current());
Fun join(Loc loc = Loc::current());
Fun slide(ArithExpr size, ArithExpr step, Loc loc = Loc::current());
Fun pad(ArithExpr left, ArithExpr right, Boundary boundary, Loc loc = Loc::current());
Fun drop(ArithExpr left, ArithExpr right, Loc loc = Loc::current());
Fun transpose(Loc loc = Loc::current());
Fun iterate(int times, Fun f, Loc loc = Loc::current());
Fun at(ArithExpr index, Loc loc = Loc::current());
Fun get(int index, Loc loc = Loc::current());
Val generate(ArithExpr length, Fun f, Loc loc = Loc::current());
Fun to_global(Fun f, Loc loc = Loc::current());
Fun to_local(Fun f, Loc loc = Loc::current());
Fun to_private(Fun f, Loc loc = Loc::current());

// n-dimensional forms over the outermost `dims` levels.
Fun map_nd(int dims, Fun f, Loc loc = Loc::current());
Fun pad_nd(int dims, ArithExpr left, ArithExpr right, Boundary boundary, Loc loc = Loc::current());
Fun drop_nd(int dims, ArithExpr left, ArithExpr right, Loc loc = Loc::current());
Fun slide_nd(int dims, ArithExpr size, ArithExpr step, Loc loc = Loc::current());
Fun split_nd(int dims, ArithExpr chunk, Loc loc = Loc::current());
Fun join_nd(int dims, Loc loc = Loc::current()); // flattens a dims-deep neighbourhood to 1-D
Val zip_nd(int dims, const std::vector<Val>& arrays, Loc loc = Loc::current());

} // namespace tessera
