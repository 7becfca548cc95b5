// Time-tiled programs: k steps of a stencil (a TimeTile node, core/TimeTile.h) as a program of
// kernels with no redundant computation.
//
// Diamond: per band of h steps, in 1-D one launch for the upright diamonds (trapezoids shrinking
// by r per level) and then one for the inverted ones between them; in d dimensions the tiles are
// the 2^d products of upright/inverted per dimension ("phases"), d + 1 launches by their number
// of inverted dimensions (a phase reads only phases whose inverted dimensions are a subset of
// its own, so those with as many are independent). Parallelogram:
// per band one launch per wavefront (the tiles whose indices sum to w), because a tile needs its
// lower neighbours' edges of the same band and OpenCL does not order work-groups of one launch
// (a work-group waiting for another may never run: no forward-progress guarantee).
//
// Tiles keep the intermediate levels in local memory; the edges a later launch needs go through
// a compact global buffer (TimeTileGeometry::edge_points: 4r points per cut, level and row), so
// a band reads the grid once, writes it once and moves O(N h r / W) edge values. Every point of
// every step is computed once: k x N stencil evaluations (evaluations()).
#pragma once

#include <string>

#include "codegen/Kernel.h"
#include "codegen/Program.h"
#include "codegen/TimeTileGeometry.h"

namespace tessera::codegen {

// What one kernel of a time-tiled program computes (codegen/TimeTileKernel.cpp).
struct TimeTileKernelSpec {
  TimeTileGeometry geometry;
  TimeTileScheme scheme = TimeTileScheme::Diamond;
  int64_t band = 1;   // levels computed
  int64_t groups = 1; // work-groups of a launch (the most any launch needs)
  int64_t local_size = 64;
  int64_t grid_points = 1;
  int64_t level_points = 1; // the edge buffer's elements
  Expr f;                   // applied to each neighbourhood, lowered for one work-item
  ScalarKind element = ScalarKind::F32;
  Type grid = f32();
  std::string name;
  std::string program_text;
};
Kernel time_tile_kernel(const TimeTileKernelSpec& spec);

// The TimeTile node of a program `x => TimeTile(..)(x)`, or null.
const Node* time_tile_of(const Expr& program);

// The kernels and launches of such a program (sizes constant or baked by options).
KernelProgram generate_time_tiled_program(const Expr& program, const CodegenOptions& options);

// The stencil evaluations (points times steps) the program computes.
int64_t time_tiled_evaluations(const Expr& program);

} // namespace tessera::codegen
