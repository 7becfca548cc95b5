// `--boundary B` of show, variants, emit, run and explore: each step of the stencil under the
// boundary B (stencils::with_boundary), before --steps iterates it. `fixed` keeps the cells
// within the radius of the grid's edge at their initial value (issue 33).
#include <doctest/doctest.h>

#include <regex>
#include <string>

#include "core/RandomData.h"
#include "stencils/Catalog.h"
#include "stencils/WithBoundary.h"
#include "tessera/tessera.h"
#include "tests/tools/CliRunner.h"

using namespace tessera;
using testing::cli;
using testing::has;
using testing::Result;

namespace {

void use_private_cache() {
  static auto dir = testing::make_cli_dir("tessera-boundary-cli");
  (void)dir;
}

// The index of the first variant of `family` in `tessera variants` output; -1 when none.
int first_of_family(const std::string& listing, const std::string& family) {
  std::smatch m;
  if (!std::regex_search(listing, m, std::regex(R"(\n\s*(\d+)  \[)" + family + R"(\])")))
    return -1;
  return std::stoi(m[1]);
}

// The first and last values `tessera run` printed for the interpreter's result.
std::pair<double, double> printed_first_last(const std::string& out) {
  std::smatch m;
  REQUIRE(std::regex_search(out, m, std::regex(R"(first (\S+), last (\S+))")));
  return {std::stod(m[1]), std::stod(m[2])};
}

} // namespace

TEST_CASE("boundary cli: --boundary fixed runs 3 fused steps that keep the edge cells") {
  use_private_cache();
  const std::vector<std::string> base = {"j2d5pt", "--size",     "21x19", "--steps",
                                         "3",      "--boundary", "fixed"};
  std::vector<std::string> args = {"variants"};
  args.insert(args.end(), base.begin(), base.end());
  Result variants = cli(args);
  INFO(variants.out.substr(0, 4000) << variants.err);
  REQUIRE(variants.code == 0);
  CHECK(has(variants.out, "diamond-tiling: constant inputs zipped to the neighbourhoods"));
  int temporal = first_of_family(variants.out, "temporal");
  REQUIRE(temporal > 0);
  args = {"run"};
  args.insert(args.end(), base.begin(), base.end());
  args.insert(args.end(), {"--variant", std::to_string(temporal)});
  Result run = cli(args);
  INFO(run.out << run.err);
  REQUIRE(run.code == 0);
  CHECK(has(run.out, "j2d5pt (2-D 5-point Jacobi"));
  CHECK(has(run.out, "boundary fixed, 3 time steps"));
  CHECK(has(run.out, "OK: the generated kernel matches the interpreter"));
  // The corners are kept cells: the interpreter's first and last values are the input's.
  Expr step =
      stencils::with_boundary(stencils::find_stencil("j2d5pt").build({21, 19}), Boundary::fixed());
  std::vector<double> initial = random_inputs(iterate_steps(step, 3), 1)[0].flatten();
  auto [first, last] = printed_first_last(run.out);
  CHECK(first == doctest::Approx(initial.front()).epsilon(1e-5));
  CHECK(last == doctest::Approx(initial.back()).epsilon(1e-5));
  // show names the step it builds; emit writes the fused kernel.
  Result show = cli({"show", "j1d3pt", "--size", "40", "--boundary", "fixed"});
  CHECK(show.code == 0);
  CHECK(has(show.out, "keep_halo"));
  Result emit = cli({"emit", "gaussian", "--size", "20x20", "--boundary", "fixed"});
  CHECK(emit.code == 0);
  CHECK(has(emit.out, "__kernel"));
}

TEST_CASE("boundary cli: --boundary on other kinds, and where fixed means nothing") {
  use_private_cache();
  Result mirror = cli({"run", "j2d9pt", "--size", "16x12", "--boundary", "mirror"});
  INFO(mirror.out << mirror.err);
  CHECK(mirror.code == 0);
  CHECK(has(mirror.out, "boundary mirror"));
  CHECK(has(mirror.out, "mirror)")); // the printed program's pads
  CHECK(has(mirror.out, "OK: the generated kernel matches the interpreter"));

  Result restrict = cli({"run", "restrict3d", "--size", "8x8x8", "--boundary", "fixed"});
  CHECK(restrict.code == 2);
  CHECK(has(restrict.err, "error: the fixed boundary (with_fixed_halo): expected one step of a "
                          "point stencil on one grid input"));
  Result symbolic = cli({"variants", "j2d5pt", "--size", "NxM", "--boundary", "fixed"});
  CHECK(symbolic.code == 2);
  CHECK(has(symbolic.err, "needs a grid of constant extents"));
  Result unknown = cli({"explore", "j2d5pt", "--size", "32x32", "--boundary", "fix"});
  CHECK(unknown.code == 2);
  CHECK(has(unknown.err, "unknown boundary 'fix'"));
  CHECK(has(unknown.err, "or fixed"));
  Result help = cli({"run", "--help"});
  CHECK(has(help.out, "--boundary"));
  CHECK(has(help.out, "fixed (the cells within the radius"));
}
