// The catalog of ready stencils, written with the public DSL in high-level form (Map, Reduce,
// Slide, Pad, Zip). Each entry builds its program for a given grid size; rewriting lowers it.
//
// The entries (definitions in their descriptions and in the files that build them):
//   stencils/Suite1D.cpp   j1d3pt, j1d7pt
//   stencils/Suite2D.cpp   j2d5pt, j2d9pt, gaussian, grad2d
//   stencils/Suite3D.cpp   j3d7pt, j3d13pt, j3d27pt, heat3d, poisson3d
//   stencils/Life.cpp      life (Conway's Game of Life on i32 cells)
//   stencils/Multigrid.cpp restrict3d, prolong3d, residual3d, gsrb3d (the thesis's operators of
//                          stencils/Thesis.h, already lowered)
// Grids are indexed from the outermost dimension inwards ([k][j][i] in 3-D); unless an entry
// says otherwise its input and result are f32 grids of the given extents with a clamped
// boundary.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "core/Expr.h"

namespace tessera::stencils {

struct StencilInfo {
  std::string name;
  std::string description;
  int dims = 1;
  int inputs = 1;
  // Builds the program for a grid of the given extents (one per dimension, outermost first;
  // constants or size variables). Every entry takes the extents of its (first) input grid.
  std::function<Expr(const std::vector<ArithExpr>& extents)> build;
  // Halo width: the largest distance, in any dimension, of a read from the output point.
  int radius = 0;
  // Values of the (first) input grid read per output value.
  int points = 0;
  // Compulsory memory traffic per output value in bytes: every input grid read once and the
  // result written once (per output value; restriction reads 8 fine values per output).
  double bytes_per_cell = 0;
};

// All entries, with unique names.
const std::vector<StencilInfo>& catalog();
// The entry with this name; Error listing the available names when there is none.
const StencilInfo& find_stencil(const std::string& name);

} // namespace tessera::stencils
