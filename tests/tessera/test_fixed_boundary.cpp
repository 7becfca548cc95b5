// The fixed boundary kind (Boundary::fixed(), `--boundary fixed`; issue 33): the cells within a
// stencil's radius of the grid's edge keep their initial value at every step. It is built as the
// fixed_halo step (dsl/FixedHalo.h) from the primitives, so every rewrite keeps it; here every
// catalog stencil that takes it, as 1, 2 and 3 steps at sizes that do and do not divide the tile
// sizes, has its offered variants at depth 1 run on PoCL against the single step applied k
// times by the interpreter, and the kept cells are compared bit for bit.
#include <doctest/doctest.h>

#include <utility>

#include <set>
#include <string>

#include "compile/Agreement.h"
#include "compile/KernelRunner.h"
#include "compile/Workload.h"
#include "core/Json.h"
#include "explore/Variants.h"
#include "primitives/Interpreter.h"
#include "rewrite/Mapping.h"
#include "stencils/Catalog.h"
#include "stencils/WithBoundary.h"
#include "tessera/tessera.h"
#include "tests/Helpers.h"

using namespace tessera;
using tessera::testing::has;

namespace {

// The catalog's point stencils: one step of one grid, x => Map^d(f) $ SlideND $ PadND $ x.
const std::set<std::string> kTakesFixed = {"j1d3pt",   "j1d7pt", "j2d5pt",    "j2d9pt",
                                           "gaussian", "grad2d", "j3d7pt",    "j3d13pt",
                                           "j3d27pt",  "heat3d", "poisson3d", "life"};

// Extents whose every dimension divides the tile sizes (4 to 64), and extents where none does.
std::vector<int64_t> extents_of(int dims, bool dividing) {
  if (dims == 1)
    return {dividing ? 256 : 253};
  if (dims == 2)
    return dividing ? std::vector<int64_t>{32, 32} : std::vector<int64_t>{29, 27};
  return dividing ? std::vector<int64_t>{16, 16, 16} : std::vector<int64_t>{13, 11, 10};
}

// A random grid: f32 values, or 0/1 cells for an integer grid (life).
Data random_grid(const Type& type, uint32_t seed) {
  std::vector<int64_t> shape;
  for (const auto& e : type.shape())
    shape.push_back(*e.as_constant());
  Data d = testing::random_f32(shape, seed);
  ScalarKind kind = type.innermost().scalar_kind();
  if (kind == ScalarKind::F32)
    return d;
  auto values = d.flatten();
  for (auto& v : values)
    v = v > 0 ? 1 : 0;
  return Data::from_flat(kind, shape, values);
}

struct Walk {
  int ran = 0, offered = 0;
  std::set<std::string> families;
  std::set<std::string> sampled; // the run kinds already run, over the stencils
};

// The variants of `steps` fixed-boundary steps of `info` at `shape`: every variant's output
// agrees with the interpreter's single step applied `steps` times, and its kept cells are the
// initial ones, bit for bit. Every variant is generated; runs: the plain lowering of every stencil,
// and one run per (dimensions, steps, divisibility, family, launch count, mapping) over the
// stencils (one run per stencil as well took 5 minutes of a cold CI run).
void walk_variants(const stencils::StencilInfo& info, const std::vector<int64_t>& shape, int steps,
                   runtime::Session& device, Walk& walk) {
  std::vector<ArithExpr> extents(shape.begin(), shape.end());
  Expr step = stencils::with_boundary(info.build(extents), Boundary::fixed());
  Expr p = steps == 1 ? step : iterate_steps(step, steps);
  std::vector<Data> inputs = {random_grid(input_types(p).front(), 41 + steps)};
  Data expected = inputs[0];
  for (int s = 0; s < steps; ++s)
    expected = evaluate(step, {expected});
  const std::vector<double> initial = inputs[0].flatten(), reference = expected.flatten();
  REQUIRE(explore::has_nonzero(reference));
  auto list = enumerate_variants(p, 1);
  walk.offered += static_cast<int>(list.variants.size());
  if (steps > 1) { // the time-tiling families take no zipped grid, and say so
    std::string absent;
    for (const auto& line : list.absent)
      absent += line + "\n";
    CHECK(has(absent, "diamond-tiling: constant inputs zipped to the neighbourhoods"));
  }
  bool first = true;
  std::vector<std::pair<const VariantInfo*, codegen::KernelProgram>> chosen;
  std::vector<codegen::Kernel> kernels_to_build;
  for (const auto& v : list.variants) {
    codegen::KernelProgram kernels = emit_program(v);
    std::string family = variant_family(v.history);
    walk.families.insert(family);
    std::string mapping = v.history.mapping ? rewrite::describe(*v.history.mapping) : "";
    const bool plain = std::exchange(first, false);
    if (!walk.sampled
             .insert(cat(shape.size(), "/", steps, "/", explore::size_text(shape), "/", family, "/",
                         kernels.launches.size(), "/", mapping))
             .second &&
        !plain)
      continue;
    kernels_to_build.insert(kernels_to_build.end(), kernels.kernels.begin(), kernels.kernels.end());
    chosen.emplace_back(&v, std::move(kernels));
  }
  explore::build_together(device, kernels_to_build); // PoCL's cost per program paid once
  for (const auto& [variant, kernels] : chosen) {
    const VariantInfo& v = *variant;
    INFO(info.name, " ", explore::size_text(shape), " steps ", steps, ": ", v.text);
    std::vector<double> got = run_kernel(device, kernels, inputs).flatten();
    REQUIRE(got.size() == initial.size());
    CHECK(explore::within_tolerance(explore::max_relative_difference(got, reference)));
    int64_t moved = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      if (testing::in_halo(static_cast<int64_t>(i), shape, info.radius))
        moved += got[i] != initial[i];
    CHECK(moved == 0);
    ++walk.ran;
  }
}

} // namespace

TEST_CASE("fixed boundary: the catalog's point stencils take it, the others say why") {
  std::set<std::string> took;
  for (const auto& info : stencils::catalog()) {
    std::vector<int64_t> shape = extents_of(info.dims, true);
    Expr plain = info.build(std::vector<ArithExpr>(shape.begin(), shape.end()));
    try {
      Expr fixed = stencils::with_boundary(plain, stencils::parse_boundary("fixed"));
      CHECK(type_check(fixed) == type_check(plain));
      took.insert(info.name);
    } catch (const Error& e) {
      INFO(info.name);
      CHECK(has(e.what(), "the fixed boundary (with_fixed_halo): expected one step of a point "
                          "stencil on one grid input"));
    }
  }
  CHECK(took == kTakesFixed);
}

TEST_CASE("fixed boundary: every offered variant of 1 to 3 steps keeps the halo exactly" *
          doctest::test_suite("extended")) {
  auto device = open_device();
  Walk walk;
  for (const auto& info : stencils::catalog()) {
    if (!kTakesFixed.count(info.name))
      continue;
    for (bool dividing : {true, false})
      for (int steps : {1, 2, 3})
        walk_variants(info, extents_of(info.dims, dividing), steps, device, walk);
  }
  MESSAGE(walk.ran, " variants run of ", walk.offered, " offered");
  for (const char* family : {"temporal", "tiled", "local-memory", "streaming", "vectorized"})
    CHECK(walk.families.count(family) == 1);
}

TEST_CASE("fixed boundary: where it means nothing, a clear error") {
  // A Pad's values outside the array: fixed is no such boundary.
  Val x = input("x", array_of(f32(), {8}));
  CHECK_THROWS_WITH_AS(x | pad(1, 1, Boundary::fixed()),
                       doctest::Contains("Pad: fixed is not a boundary of values outside the "
                                         "array but of a stencil step"),
                       Error);
  // Nor in a program file's Pad.
  Expr padded = program({x}, x | pad(1, 1, clamp));
  std::string text = expr_to_json(padded).dump();
  auto at = text.find("\"clamp\"");
  REQUIRE(at != std::string::npos);
  text.replace(at, 7, "\"fixed\"");
  std::string error = testing::error_of([&] { expr_from_json(nlohmann::json::parse(text)); });
  CHECK(has(error, "fixed is not a boundary of values outside the array"));
  // A stencil that is not one step of a point stencil, and a symbolic grid.
  Expr restrict = stencils::find_stencil("restrict3d").build({8, 8, 8});
  CHECK_THROWS_WITH_AS(stencils::with_boundary(restrict, Boundary::fixed()),
                       doctest::Contains("expected one step of a point stencil"), Error);
  Expr symbolic = stencils::find_stencil("j2d5pt").build({size("N"), size("M")});
  CHECK_THROWS_WITH_AS(stencils::with_boundary(symbolic, Boundary::fixed()),
                       doctest::Contains("needs a grid of constant extents"), Error);
  CHECK_THROWS_WITH_AS(stencils::parse_boundary("fix"), doctest::Contains("or fixed"), Error);
  CHECK(stencils::parse_boundary("fixed") == Boundary::fixed());
  CHECK(Boundary::fixed().to_string() == "fixed");
}

TEST_CASE("fixed boundary: one step has the families a clamped one has") {
  // The interior grid is a view the kernels evaluate where they read it: no work-item stores it
  // (core/WorkItemMemory.h), so the tiled mappings take the step as they take a clamped one.
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{64, 64}, {64, 61}}) {
    Expr clamped = stencils::find_stencil("j2d5pt").build({shape[0], shape[1]});
    std::set<std::string> plain_families, fixed_families;
    VariantList plain = enumerate_variants(clamped, 1);
    VariantList fixed = enumerate_variants(stencils::with_boundary(clamped, Boundary::fixed()), 1);
    for (const auto& v : plain.variants)
      plain_families.insert(variant_family(v.history));
    for (const auto& v : fixed.variants)
      fixed_families.insert(variant_family(v.history));
    CHECK(fixed_families == plain_families);
    CHECK(fixed_families.count("local-memory") == 1);
  }
}
