// Random well-typed stencil programs for differential fuzzing (interpreter vs. generated kernel).
//
// A program is described by a Recipe (plain numbers, so that it can be printed, saved and
// shrunk) and built from it with the public DSL. Compared with tests/rewrite/RandomPrograms.h it
// covers every primitive: 1-3 dimensions with random non-square extents, constant or symbolic
// sizes, asymmetric halos and every boundary kind, 1-3 zipped inputs of f32, f64 or i32 and a
// Generate grid, neighbourhood functions built from Reduce, At, Get, Zip, Split/Join,
// Transpose, Drop, Slide and Iterate, layout rearrangements before the stencil and after it,
// and random user functions (arithmetic, select, min/max, math functions, casts).
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/Expr.h"

namespace tessera::fuzz {

struct Recipe {
  int dims = 1;
  std::vector<int64_t> shape{8}; // extents, outermost first
  // 0: constant sizes; 1: size variables passed as kernel arguments; 2: size variables baked
  // into the kernel by CodegenOptions::baked_sizes.
  int size_mode = 0;
  std::vector<ScalarKind> kinds{ScalarKind::F32}; // one per input (1-3)
  int left = 1, right = 1;                        // halo; 0/0: a pointwise program
  int boundary = 0;            // 0 clamp, 1 mirror, 2 wrap, 3 constant, 4 antisymmetric
  bool windows_for_all = true; // every input gets neighbourhoods (else only the first)
  bool generate = false;       // a Generate grid zipped with the inputs
  int prep = 0;                // layout before the stencil (see RecipeKinds.h)
  int window_fn = 0;           // neighbourhood function family (see RecipeKinds.h)
  int post = 0;                // what happens to the result (see RecipeKinds.h)
  int fn_depth = 2;            // depth of the random scalar functions (0: trivial)
  uint32_t fn_seed = 1;        // seed of the random scalar functions
  // Names of user functions and inputs: 0 generated ("add3", "x0"); 1 different user functions
  // share one name (as helpers do); 2 names from tricky_names() that the code generator must
  // rename (OpenCL C keywords, types, built-ins and macros, its own variable names, the
  // kernel's name, prefixes of generated names, duplicates).
  int names = 0;
  bool normalize = true; // beta-normalised (the flat chains rules match) or as built

  std::string describe() const; // one line, e.g. "2-D 6x5 f32,i32 r1/2 mirror prep=3 ..."
  nlohmann::json to_json() const;
};

Recipe random_recipe(std::mt19937& rng);

// The program of a recipe; throws tessera::Error when the recipe is not well-typed (the
// generator then draws another one).
Expr build_program(const Recipe& recipe);

// Simpler recipes (each differs from r in one field, towards the default), for shrinking.
std::vector<Recipe> simpler_recipes(const Recipe& r);

// Names that a C code generator must keep clear of: OpenCL C keywords, types, built-in
// functions and macros, and the names the generator gives its own variables.
const std::vector<std::string>& tricky_names();

// Values of the size variables (N0, N1, N2) of a recipe with symbolic sizes.
std::map<std::string, int64_t> size_values(const Recipe& r);

// How many nodes of each kind a program has (for coverage statistics).
void count_kinds(const Expr& e, std::map<std::string, std::size_t>& counts);

} // namespace tessera::fuzz
