// Split launches as programs (codegen/SplitLaunch.h): the plain lowering's interior as a kernel
// of its own without boundary conditionals, the whole kernel on the slabs around it. Checked on
// PoCL against the interpreter for catalog stencils of 1-3 dimensions, radii 1-2 and four
// boundaries, on grids whose extents are odd and barely larger than the stencil; the parts cover
// the range exactly once; programs without a split are refused with the reason.
#include <doctest/doctest.h>

#include <numeric>

#include "codegen/SplitLaunch.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "stencils/Catalog.h"
#include "stencils/WithBoundary.h"
#include "tests/Helpers.h"
#include "tests/codegen/CodegenCheck.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;

namespace {

// How many parts cover each point of `global` (x first).
std::vector<int> coverage(const std::vector<int64_t>& global, int64_t margin, bool rows) {
  const std::size_t dims = global.size();
  int64_t points = 1;
  for (auto g : global)
    points *= g;
  std::vector<int> count(static_cast<std::size_t>(points), 0);
  for (const auto& part : codegen::interior_and_slabs(global, margin, rows)) {
    REQUIRE(part.offset.size() == dims);
    REQUIRE(part.extent.size() == dims);
    std::vector<int64_t> at(dims, 0);
    int64_t part_points = 1;
    for (auto e : part.extent)
      part_points *= e;
    for (int64_t n = 0; n < part_points; ++n) {
      int64_t rest = n, index = 0, stride = 1;
      for (std::size_t a = 0; a < dims; ++a) {
        const int64_t i = part.offset[a] + rest % part.extent[a];
        rest /= part.extent[a];
        REQUIRE(i >= 0);
        REQUIRE(i < global[a]);
        index += i * stride;
        stride *= global[a];
      }
      ++count[static_cast<std::size_t>(index)];
    }
  }
  return count;
}

// The catalog stencil at `extents` under `boundary`, lowered by default, as a split program run
// on PoCL against the interpreter; returns the program.
codegen::KernelProgram check_split(const std::string& name, const std::vector<int64_t>& extents,
                                   const Boundary& boundary, uint64_t seed) {
  const auto& info = stencils::find_stencil(name);
  std::vector<ArithExpr> sizes(extents.begin(), extents.end());
  Expr lowered = rewrite::lower_default(stencils::with_boundary(info.build(sizes), boundary));
  INFO(name << " under " << boundary.to_string());
  codegen::KernelProgram split = codegen::generate_split_program(lowered);
  Data x = testing::random_f32(extents, seed);
  Data expected = evaluate(lowered, {x});
  auto run = explore::execute(testing::test_session(), split, {x});
  INFO(split.describe());
  CHECK(explore::max_relative_error(run.output, expected) <= 1e-6);
  return split;
}

} // namespace

TEST_CASE("a split launch's parts cover the range once: the interior first, then 2 slabs an axis") {
  for (const auto& [global, margin] : std::vector<std::pair<std::vector<int64_t>, int64_t>>{
           {{7}, 1}, {{5}, 2}, {{9, 3}, 1}, {{6, 11}, 2}, {{5, 7, 9}, 1}, {{9, 9, 10}, 3}}) {
    for (bool rows : {false, true}) {
      INFO("global of " << global.size() << " dimensions, margin " << margin << ", rows " << rows);
      auto count = coverage(global, margin, rows);
      CHECK(std::all_of(count.begin(), count.end(), [](int c) { return c == 1; }));
      auto parts = codegen::interior_and_slabs(global, margin, rows);
      CHECK(parts.size() == 1 + 2 * global.size());
      for (std::size_t a = 0; a < global.size(); ++a) {
        CHECK(parts[0].offset[a] == margin);
        CHECK(parts[0].extent[a] == global[a] - 2 * margin); // rows of at most 512: whole
      }
    }
  }
  // A longer row is cut to one that a group of 64..512 divides, the upper x slab taking the
  // rest: 5756 - 4 = 5752 = 8 x 719 -> 5751 = 27 x 213, the slab 3 wide.
  CHECK(codegen::interior_row(318) == 318);
  CHECK(codegen::interior_row(5752) == 5751);
  CHECK(codegen::interior_row(1028) == 1028); // 4 x 257
  CHECK(codegen::interior_row(2062) == 2061); // 2 x 1031 -> 9 x 229
  auto rounded = codegen::interior_and_slabs({5756, 9}, 2, true);
  CHECK(rounded[0].extent == std::vector<int64_t>{5751, 5});
  CHECK(rounded.back().offset == std::vector<int64_t>{5753, 2});
  CHECK(rounded.back().extent == std::vector<int64_t>{3, 5});
  auto count = coverage({5756, 9}, 2, true);
  CHECK(std::all_of(count.begin(), count.end(), [](int c) { return c == 1; }));
  CHECK_ERROR(codegen::interior_and_slabs({8, 4}, 2), "no interior 2 from both ends");
}

TEST_CASE("split programs of catalog stencils equal the interpreter on PoCL, four boundaries") {
  const std::vector<Boundary> boundaries{
      Boundary::clamp(), Boundary::wrap(), Boundary::mirror(),
      Boundary::constant(ScalarValue::make(ScalarKind::F32, 0.5))};
  const std::vector<std::pair<std::string, std::vector<int64_t>>> cases{
      {"j1d3pt", {37}},
      {"j2d5pt", {9, 13}},
      {"gaussian", {7, 11}},
      {"j3d7pt", {5, 6, 9}},
      {"j3d27pt", {3, 7, 5}},
      {"heat3d", {6, 5, 7}},
      {"j3d13pt", {7, 5, 9}},
      {"j2d9pt", {12, 7}},
      // Long rows: 517 = 11 x 47 cut to 516 (the upper x slab 3 wide), 1020 whole.
      {"j2d5pt", {3, 519}},
      {"j3d27pt", {3, 4, 1022}}};
  uint64_t seed = 11;
  for (const auto& [name, extents] : cases)
    for (const auto& boundary : boundaries) {
      auto split = check_split(name, extents, boundary, ++seed);
      REQUIRE(split.kernels.size() == 2);
      CHECK(split.kernels[0].interior_margin == stencils::find_stencil(name).radius);
      CHECK(split.launches.size() == 1 + 2 * extents.size());
      CHECK(split.launches[0].kernel == 0); // the interior first, without the branch
      const int64_t r = stencils::find_stencil(name).radius;
      CHECK(split.launches[0].extent[0] == codegen::interior_row(extents.back() - 2 * r));
      CHECK(split.kernels[0].source.find("} else {") == std::string::npos);
      CHECK(split.kernels[1].source.find("} else {") != std::string::npos);
    }
}

TEST_CASE("programs without a split launch are refused with the reason") {
  // Two steps: two launches, not one kernel.
  Val x = input("x", Type::array(f32(), 64));
  auto average = user_fun("avg3", [](auto a, auto b, auto c) { return (a + b + c) / 3.0f; });
  Fun smooth = pad(1, 1, clamp) >> slide(3, 1) >>
               map([=](Val w) { return average(w.at(0), w.at(1), w.at(2)); });
  CHECK_ERROR(
      codegen::generate_split_program(rewrite::lower_default(program({x}, x | iterate(2, smooth)))),
      "several launches, not one kernel");
  // Symbolic sizes: the parts' ranges are not known.
  Val y = input("y", Type::array(f32(), size("N")));
  CHECK_ERROR(codegen::generate_split_program(rewrite::lower_default(program({y}, y | smooth))),
              "not a constant");
  // No boundary: every point is interior, nothing to split off.
  Fun valid = slide(3, 1) >> map([=](Val w) { return average(w.at(0), w.at(1), w.at(2)); });
  CHECK_ERROR(codegen::generate_split_program(rewrite::lower_default(program({x}, x | valid))),
              "no interior version");
  // A work-group size: the parts choose theirs.
  codegen::CodegenOptions grouped;
  grouped.local_size = {16, 1, 1};
  CHECK_ERROR(
      codegen::generate_split_program(rewrite::lower_default(program({x}, x | smooth)), grouped),
      "takes no work-group size");
  // A grid too small for an interior.
  Val z = input("z", Type::array(f32(), 2));
  CHECK_ERROR(codegen::generate_split_program(rewrite::lower_default(program({z}, z | smooth))),
              "split launch");
}
