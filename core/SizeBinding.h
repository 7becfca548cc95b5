// Binding size variables from the lengths of actual inputs, and checking the conditions the type
// checker deferred (TypeChecker::assumptions) once they are bound.
//
// Every length of every input is an equation `length expression = actual length`. They are
// solved together, in any order: an equation with one unknown variable is solved (exactly for
// affine lengths such as 2*M+1, by search for other monotone ones) and may make another one
// solvable, until nothing changes. So (y : [2*M+1], Y : [M]) binds M from Y and then checks y.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/Assumption.h"
#include "core/Data.h"

namespace tessera {

using SizeValues = std::map<std::string, int64_t>;

// One observed length: `length` (an expression of size variables) must equal `actual`.
struct SizeEquation {
  ArithExpr length;
  int64_t actual = 0;
};

// The equations of one input: the lengths along its first elements (arrays of arrays are
// rectangular; the interpreter checks every element afterwards).
void collect_size_equations(const Data& d, const Type& t, std::vector<SizeEquation>& out);
// The equations of a flat input of the given shape (outermost first).
void collect_size_equations(const std::vector<int64_t>& shape, const Type& t,
                            std::vector<SizeEquation>& out);

// Solves for the variables not yet in `sizes` from all equations; leaves unsolvable ones
// unbound (evaluating them later names them).
void solve_sizes(const std::vector<SizeEquation>& equations, SizeValues& sizes);

// Throws Error with the assumption's message and the sizes it was checked with when one of them
// does not hold; `where` prefixes the message (e.g. "kernel k").
void check_assumptions(const std::vector<Assumption>& assumptions, const SizeValues& sizes,
                       const std::string& where = "");

} // namespace tessera
