#include "tools/ProgramSource.h"

#include <filesystem>

#include "core/Error.h"
#include "core/Json.h"
#include "explore/Space.h"
#include "stencils/WithBoundary.h"
#include "tessera/Program.h"

namespace tessera::tools {

namespace {

std::string catalog_default_size(int dims) {
  return dims == 1 ? "64" : dims == 2 ? "32x32" : "16x16x16";
}

ProgramSource from_file(const std::string& path) {
  Expr program = load_expr_file(path);
  auto grid = grid_extents(program);
  if (grid.empty())
    user_error(cat(path, ": the program's first input is a scalar; the grid (first input) must "
                         "be an array"));
  if (grid.size() > 3)
    user_error(cat(path, ": the program's first input has ", grid.size(),
                   " dimensions; grids have 1 to 3"));
  type_check(program);
  ProgramSource s;
  // The user's name, as written: kernels are named from it by codegen::kernel_identifier.
  s.info.name = std::filesystem::path(path).stem().string();
  s.info.description = cat("the program in ", path);
  s.info.dims = static_cast<int>(grid.size());
  s.info.inputs = static_cast<int>(program->params().size());
  s.info.build = [program](const std::vector<ArithExpr>& extents) {
    return with_extents(program, extents);
  };
  std::vector<int64_t> constant;
  for (const auto& e : grid)
    if (auto c = e.as_constant())
      constant.push_back(*c);
  s.fixed_size = constant.size() == grid.size();
  s.default_size = s.fixed_size ? explore::size_text(constant) : catalog_default_size(s.info.dims);
  return s;
}

} // namespace

ProgramSource resolve_program(const std::string& stencil, const std::string& program_file,
                              int steps, const std::string& boundary) {
  if (stencil.empty() == program_file.empty())
    user_error(stencil.empty() ? "give a stencil name (see `tessera list`) or --program FILE.json"
                               : cat("give a stencil name or --program FILE.json, not both (got '",
                                     stencil, "' and '", program_file, "')"));
  if (steps < 1)
    user_error(cat("--steps must be at least 1, got ", steps));
  ProgramSource s;
  if (!program_file.empty()) {
    s = from_file(program_file);
  } else {
    s.info = stencils::find_stencil(stencil);
    s.default_size = catalog_default_size(s.info.dims);
  }
  if (!boundary.empty()) {
    // The boundary of one step, before the steps are iterated: each step keeps it.
    s.info.build = [step = s.info.build,
                    b = stencils::parse_boundary(boundary)](const std::vector<ArithExpr>& extents) {
      return stencils::with_boundary(step(extents), b);
    };
    s.info.description += cat(", boundary ", boundary);
  }
  if (steps > 1) {
    auto step = s.info.build;
    s.info.build = [step, steps](const std::vector<ArithExpr>& extents) {
      return iterate_steps(step(extents), steps);
    };
    s.info.description += cat(", ", steps, " time steps");
  }
  return s;
}

std::string boundary_help() {
  return "The stencil's boundary instead of its own: clamp, mirror, wrap, antisymmetric, constant, "
         "constant(V) for every Pad, or fixed (the cells within the radius of the grid's edge keep "
         "their initial value at every step; one step of a point stencil on one grid of constant "
         "extents)";
}

std::string size_help() {
  return "Grid extents, e.g. 64x64 (names make sizes symbolic); default 64 (1-D), 32x32 (2-D), "
         "16x16x16 (3-D), or a --program's own constant extents";
}

} // namespace tessera::tools
