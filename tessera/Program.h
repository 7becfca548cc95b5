// tessera's public C++ API, part 1: building a program and checking it.
//
// A program is a lambda over typed inputs built with the DSL (dsl/Dsl.h, included here):
//
//   ArithExpr N = size("N"), M = size("M");              // symbolic extents
//   Val x = input("x", Type::array(Type::array(f32(), M), N));
//   Expr prog = program({x}, x | pad2d(1, 1, clamp) | slide2d(3, 1) | map2d(point));
//   Type t = tessera::type_check(prog);                   // [[f32]_M]_N
//   Expr small = tessera::at_size(prog, {64, 64});        // N = 64, M = 64
//   Expr three = tessera::iterate_steps(small, 3);        // three time steps in one program
//   tessera::save_expr_file(prog, "prog.json");           // what `tessera ... --program` reads
//
// Every mistake is a tessera::Error whose message names the primitive, what it got and what it
// needed (see docs/language.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dsl/Dsl.h"

namespace tessera {

// The program's result type; Error naming the first ill-typed primitive otherwise.
Type type_check(const Expr& program);

// The extents of the program's first input, outermost first (constants or size variables):
// the grid whose size `at_size` and the command line's --size give.
std::vector<ArithExpr> grid_extents(const Expr& program);

// The program with the first input's size variables bound to `extents` (outermost first);
// constant extents must be equal to the given ones. Error when the number of extents differs,
// an extent is not positive, or a size variable of the program is not an extent of its first
// input (it could not be bound from a grid size).
Expr at_size(const Expr& program, const std::vector<int64_t>& extents);
// The same with extents that may be size variables themselves (renaming N to M, say).
Expr with_extents(const Expr& program, const std::vector<ArithExpr>& extents);

// The program applied `steps` times in a row (each step reads the previous step's result, the
// boundary applied at every step); its variants include temporal tiling. Error unless the
// program has one input and its result has the input's type, or when steps < 1.
Expr iterate_steps(const Expr& program, int steps);

} // namespace tessera
