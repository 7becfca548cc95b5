// What a command works on: a catalog stencil by name, or the user's own program from a file
// (`--program FILE.json`, as save_expr_file writes it), possibly `--steps K` time steps of it.
// Both become a StencilInfo, so that every command treats them alike.
#pragma once

#include <string>

#include "stencils/Catalog.h"

namespace tessera::tools {

struct ProgramSource {
  stencils::StencilInfo info;
  // --size when none is given: the program's own constant extents, else 64, 32x32 or 16x16x16.
  std::string default_size;
  // A --program whose extents are all constants: it exists at its own size only, so it is its
  // own small program (the interpreter checks it on the whole grid, as tessera::make_problem).
  bool fixed_size = false;
};

// Exactly one of `stencil` and `program_file` must be given. A program file's first input is
// the grid: --size binds its size variables (or must equal its constant extents). steps > 1
// iterates the program (its variants then include temporal tiling). A non-empty `boundary`
// (--boundary: stencils::parse_boundary's names) replaces each step's boundary
// (stencils::with_boundary) when the program is built. Error naming the problem (unknown
// stencil or boundary, unreadable or invalid file, a program that cannot be iterated or does
// not take the boundary).
ProgramSource resolve_program(const std::string& stencil, const std::string& program_file,
                              int steps, const std::string& boundary = "");

// The help text of --boundary.
std::string boundary_help();

// The help text of --size, with the default sizes.
std::string size_help();

} // namespace tessera::tools
