// Small building blocks of the multigrid operators (internal to multigrid/): grid inputs, point
// formulas of run-time arity, neighbourhood reads by offset, and index-computed grids.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "dsl/Dsl.h"
#include "multigrid/Operators.h"

namespace tessera::multigrid::detail {

Type grid_type(const Level& level);
Val grid_input(const std::string& name, const Level& level);

// A user function of the given parameter kinds whose body is built from one Sym per parameter.
using Body = std::function<Sym(const std::vector<Sym>&)>;
Fun formula(const std::string& name, const std::vector<ScalarKind>& params, const Body& body);

// The element of a (2r+1)^d neighbourhood at `offset` from its centre (outermost first).
Val at_offset(Val neighbourhood, const std::vector<int>& offset, int radius);
// The 2d star offsets of a d-dimensional grid: (-1,0,..), (1,0,..), (0,-1,..), ...
std::vector<std::vector<int>> star_offsets(int dims);
// All corners of {0,1}^d in row-major order.
std::vector<std::vector<int>> corners(int dims);

// An i32 grid of `level`'s shape whose value at index (i_0, ..., i_{d-1}) is g(i_0, ...), for a
// user function g of d i32 parameters: index-aware values without an input array.
Val index_grid(const Level& level, const Fun& g);

// The red-black mask of a half-sweep: an i32 grid of 1 where the index sum has the parity of
// `colour` (0: red, even sums; 1: black), 0 elsewhere.
Val colour_grid(const Level& level, int colour);

// The parity of each index of `fine`, packed into one i32 grid: bit (d-1-k) is i_k % 2 of the
// global index (a rank's box counts from the grid's origin). parity_bit reads bit k of it.
Val parity_grid(const Level& fine);
Sym parity_bit(const Sym& code, int k, int dims);

// The elements of a 2^d or 3^d block in row-major order.
std::vector<Val> block_elements(const Val& block, int dims, int side);
// The mean of `count` values: their sum in order times 1/count (the 2^d average's formula).
Fun average_formula(int count, ScalarKind kind);
// What a point program writes of the values of `point` over the grid: the grid itself; the 2^d
// average of each coarse cell's children on the coarser level (the fine grid never stored); or
// their squares summed along `axis` in runs of square_sum_run(level, axis) points, a norm's
// partial sums (the values never stored; residual_square_sums, Operators.h).
struct PointOutput {
  enum Kind { Grid, Average, SquareSums } kind = Grid;
  SquareSumAxis axis = SquareSumAxis::Outermost;
};

// The program over `inputs` that maps `point` over the grid of `zipped` values (of `level`) and
// writes `output` of them. `coarse` (Average only): the box the average is written to (a rank's
// box of the coarser level, whose halos may differ from the fine box's: BoxNesting.h); none: the
// coarser level of `level` as a whole grid.
Expr point_program(const Level& level, const std::vector<Val>& inputs, const Val& zipped,
                   const Fun& point, PointOutput output, const Level* coarse = nullptr);

// zip_nd(dims, grids) | map_nd(dims, point) as a program over `inputs`, computed in pairs along
// the innermost dimension: one work-item computes the points 2c and 2c + 1 of a row, so what
// both read (an interpolation's coarse values) it loads once. `point` is a formula of `kinds`
// whose arguments are each grid's element turned into values by explode[i], in order. The same
// values to the bit; the innermost extent must be even.
using Explode = std::function<std::vector<Val>(const Val&)>;
Expr pairs_along_x(const std::vector<Val>& inputs, const std::vector<Val>& grids,
                   const std::vector<Explode>& explode, const std::string& name,
                   const std::vector<ScalarKind>& kinds, const Body& point, int dims);

// Every element of the outermost d levels repeated twice along each of them:
// [n]^d of T -> [2n]^d of T, element I = x[I/2] (a view: no memory).
Fun duplicate_nd(int dims);

// A boundary value of the level's element kind (constant(0) of the right type).
Boundary zero_boundary(const Level& level);
// `bc` with a constant boundary's value converted to the level's element kind.
Boundary adapt(const Boundary& bc, const Level& level);

} // namespace tessera::multigrid::detail
