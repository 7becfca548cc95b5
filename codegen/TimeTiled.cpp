#include "codegen/TimeTiled.h"

#include <bit>

#include "codegen/Names.h"
#include "codegen/RollingKernel.h"
#include "core/Error.h"
#include "core/Printer.h"
#include "primitives/TypeCheck.h"

namespace tessera::codegen {

namespace {

struct Plan {
  const Node* node = nullptr;
  TimeTiling tiling;
  Type grid = f32();
  ScalarKind element = ScalarKind::F32;
  std::vector<int64_t> extents;
  int64_t points = 1;
};

Plan plan_of(const Expr& program) {
  Plan p;
  p.node = time_tile_of(program);
  if (!p.node)
    internal_error("not a time-tiled program");
  p.tiling = time_tiling_of(*p.node);
  Expr x = program->params().at(0);
  if (!x->declared_type)
    user_error("a time-tiled program needs a typed input grid");
  p.grid = *x->declared_type;
  const Type* level = &p.grid;
  for (int l = 0; l < p.tiling.dims; ++l) {
    if (!level->is_array())
      user_error(cat("a ", p.tiling.dims, "-dimensional time tiling needs a ", p.tiling.dims,
                     "-dimensional grid, got ", p.grid));
    auto n = level->length().as_constant();
    if (!n)
      user_error(cat("a time-tiled program needs constant extents (bake the sizes), got ", p.grid));
    p.extents.push_back(*n);
    p.points *= *n;
    level = &level->element();
  }
  if (!level->is_scalar())
    user_error(cat("a time-tiled program's grid must hold scalars, got ", p.grid));
  p.element = level->scalar_kind();
  return p;
}

// Rolling tiles: per band of h steps one launch of the band's kernel, one work-item a tile;
// bands after the first read the previous band's grid (two grids, ping-pong).
KernelProgram generate_rolling_program(const Plan& plan, const Expr& program,
                                       const CodegenOptions& options) {
  const TimeTiling& t = plan.tiling;
  RollingGeometry geometry(t, plan.node->boundary, plan.extents);
  KernelProgram result;
  result.input_types = {plan.grid};
  result.output_type = plan.grid;
  result.buffers = {{plan.element, plan.points}, {plan.element, plan.points}};
  std::map<int64_t, std::size_t> kernel_of;
  const std::string name = sanitize(options.kernel_name), text = print(program);
  auto kernel = [&](int64_t h) {
    if (auto it = kernel_of.find(h); it != kernel_of.end())
      return it->second;
    RollingKernelSpec spec{geometry};
    spec.band = h;
    spec.f = plan.node->children.at(0);
    spec.element = plan.element;
    spec.grid = plan.grid;
    spec.grid_points = plan.points;
    spec.name = cat(name, "_rolling_h", h);
    spec.program_text = text;
    result.kernels.push_back(rolling_kernel(spec));
    return kernel_of[h] = result.kernels.size() - 1;
  };
  BufferRef input{BufferRef::ProgramInput, 0};
  for (int64_t done = 0, band = 0; done < t.steps; ++band) {
    int64_t h = std::min(t.band, t.steps - done);
    done += h;
    BufferRef output = done == t.steps
                           ? BufferRef{BufferRef::ProgramOutput, 0}
                           : BufferRef{BufferRef::Intermediate, static_cast<std::size_t>(band % 2)};
    result.launches.push_back({kernel(h), {input}, output, {}});
    input = output;
  }
  return result;
}

} // namespace

const Node* time_tile_of(const Expr& program) {
  if (program->kind != NodeKind::Lambda || program->params().size() != 1)
    return nullptr;
  const Expr& body = program->body();
  if (body->kind != NodeKind::Call || body->children.size() != 2 ||
      body->callee()->kind != NodeKind::TimeTile ||
      !body->children[1].same_as(program->params()[0]))
    return nullptr;
  return body->callee().get();
}

KernelProgram generate_time_tiled_program(const Expr& program, const CodegenOptions& options) {
  Plan plan = plan_of(program);
  TypeChecker types;
  types.apply(program, input_types(program)); // f must be well typed on the neighbourhoods
  const TimeTiling& t = plan.tiling;
  if (t.scheme == TimeTileScheme::Rolling)
    return generate_rolling_program(plan, program, options);
  TimeTileGeometry geometry(t, plan.node->boundary, plan.extents);
  const int d = t.dims;

  KernelProgram result;
  result.input_types = {plan.grid};
  result.output_type = plan.grid;
  // Two grids between bands (ping-pong) and the compact buffer of the edges (a band of h < t.band
  // steps uses the first part of it).
  const int64_t level_points = std::max<int64_t>(1, geometry.edge_points(t.band));
  result.buffers = {
      {plan.element, plan.points}, {plan.element, plan.points}, {plan.element, level_points}};
  const BufferRef levels{BufferRef::Intermediate, 2};

  // One kernel per band height, launched once per number of inverted dimensions (the phases
  // with as many are independent: each reads only phases with fewer) or per wavefront.
  std::map<int64_t, std::size_t> kernel_of;
  std::string name = sanitize(options.kernel_name);
  std::string text = print(program);
  const bool diamond = t.scheme == TimeTileScheme::Diamond;
  auto groups_of = [&](int phase) {
    int64_t groups = 1;
    for (int l = 0; l < d; ++l)
      if (diamond)
        groups *= geometry.diamond_tiles(l, phase >> l & 1);
      else if (l < d - 1)
        groups *= geometry.m[l]; // the innermost index follows from the wavefront's number
    return groups;
  };
  int64_t widest = 0;
  auto groups_inverted = [&](int inverted) { // the tiles of the phases with `inverted` bits
    int64_t groups = 0;
    for (int phase = 0; phase < (1 << d); ++phase)
      if (std::popcount(static_cast<unsigned>(phase)) == inverted)
        groups += groups_of(phase);
    return groups;
  };
  if (diamond)
    for (int inverted = 0; inverted <= d; ++inverted)
      widest = std::max(widest, groups_inverted(inverted));
  else
    widest = groups_of(0);
  auto kernel = [&](int64_t h) {
    if (auto it = kernel_of.find(h); it != kernel_of.end())
      return it->second;
    TimeTileKernelSpec spec{geometry};
    spec.scheme = t.scheme;
    spec.band = h;
    spec.groups = widest;
    spec.local_size = t.work_group;
    spec.grid_points = plan.points;
    spec.level_points = level_points;
    spec.f = plan.node->children.at(0);
    spec.element = plan.element;
    spec.grid = plan.grid;
    spec.name = cat(name, diamond ? "_diamond_h" : "_wavefront_h", h);
    spec.program_text = text;
    result.kernels.push_back(time_tile_kernel(spec));
    return kernel_of[h] = result.kernels.size() - 1;
  };

  BufferRef input{BufferRef::ProgramInput, 0};
  for (int64_t done = 0, band = 0; done < t.steps; ++band) {
    int64_t h = std::min(t.band, t.steps - done);
    done += h;
    BufferRef output = done == t.steps
                           ? BufferRef{BufferRef::ProgramOutput, 0}
                           : BufferRef{BufferRef::Intermediate, static_cast<std::size_t>(band % 2)};
    if (diamond) {
      for (int inverted = 0; inverted <= d; ++inverted)
        if (groups_inverted(inverted) > 0)
          result.launches.push_back({kernel(h), {input, levels}, output, {{"inverted", inverted}}});
    } else {
      int64_t waves = 1;
      for (int l = 0; l < d; ++l)
        waves += geometry.m[l] - 1;
      for (int64_t w = 0; w < waves; ++w)
        result.launches.push_back({kernel(h), {input, levels}, output, {{"wave", w}}});
    }
    input = output;
  }
  return result;
}

int64_t time_tiled_evaluations(const Expr& program) {
  Plan plan = plan_of(program);
  const bool rolling = plan.tiling.scheme == TimeTileScheme::Rolling;
  int64_t total = 0;
  for (int64_t done = 0; done < plan.tiling.steps;) {
    int64_t h = std::min(plan.tiling.band, plan.tiling.steps - done);
    total += rolling
                 ? RollingGeometry(plan.tiling, plan.node->boundary, plan.extents).evaluations(h)
                 : TimeTileGeometry(plan.tiling, plan.node->boundary, plan.extents).evaluations(h);
    done += h;
  }
  return total;
}

} // namespace tessera::codegen
