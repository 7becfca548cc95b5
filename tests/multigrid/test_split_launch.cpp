// A kernel's interior launched apart (codegen::CodegenOptions::interior_only, Schedule::launch):
// the interior version on the work-items away from every edge and the whole kernel on the slabs
// around them give the whole kernel's result to the bit, out of place and in place, for
// operators of 1 to 3 dimensions with their boundaries, and the interpreter's to rounding. And
// which kernels have an interior version, and when the solver's tuner asks for one.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <optional>

#include "../Helpers.h"
#include "DeviceSession.h"
#include "codegen/Kernel.h"
#include "multigrid/Helmholtz.h"
#include "multigrid/HelmholtzFv4.h"
#include "multigrid/Layout.h"
#include "multigrid/Operators.h"
#include "multigrid/Program.h"
#include "multigrid/Tuning.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "runtime/Session.h"

using namespace tessera;
using namespace tessera::multigrid;

namespace {

std::vector<double> download(const DeviceMemory& memory, BufferId id) {
  std::vector<double> values(static_cast<std::size_t>(memory.count(id)));
  memory.buffer(id).read(values.data(), values.size() * sizeof(double));
  return values;
}

struct Grid {
  Level level;
  std::vector<double> values;
};

Grid random_input(const Level& level, uint32_t seed, double shift = 0) {
  auto v = testing::random_values(static_cast<std::size_t>(level.points()), seed);
  for (auto& x : v)
    x += shift;
  return {level, v};
}

// How a case splits (check_split).
struct SplitCase {
  // The output is the first input (an in-place kernel).
  bool in_place = false;
  // The operator's own form for its interior (HPGMG-FV's 4th order), exact `form_margin` or more
  // from every edge; none: the program's own interior version.
  std::optional<Expr> interior_form;
  int64_t form_margin = 0;
  // >= 0: an in-place red-black half-sweep whose interior computes the points of its colour alone
  // (CodegenOptions::colour_parity).
  int colour_parity = -1;
  // With colour_parity out of place: the input whose values the other point of each pair keeps
  // (CodegenOptions::colour_pair_copy).
  std::string pair_copy;
  // The operator's forms for the parts around the interior by inside mask (slab_inside), run on
  // them (CompiledKernel::slabs) instead of the whole kernel; none where a mask has none.
  std::vector<std::optional<Expr>> slab_forms;
  // The parts are the interior's faces, edges and corners (CompiledKernel::slab_regions).
  bool regions = false;
  // The relative difference from the whole kernel allowed (0: the same bits).
  double to_whole = 0;
  // The interior guarded to itself and launched on whole rows (CodegenOptions::interior_rows).
  bool rows = false;
};

// The interior kernel alone on whole rows (as launch_split runs it) into a zeroed buffer writes
// the interior's points, each as the split launch did (`split`), and nothing else: its guard
// keeps the rows' ends, which the slabs along x compute, untouched.
void check_rows_guarded(const CompiledKernel& apart, DeviceMemory& memory,
                        const std::vector<BufferId>& inputs, const std::vector<double>& split) {
  const runtime::Range& global = apart.global;
  const auto m = static_cast<std::size_t>(apart.interior_margin);
  std::vector<std::size_t> offset, size;
  for (int a = 0; a < global.dims(); ++a) { // a colour-strided x: half the work-items
    offset.push_back(a == 0 ? 0 : m);
    size.push_back(a == 0 ? *apart.interior->code.launch.global[0].as_constant()
                          : global[a] - 2 * m);
  }
  const BufferId alone =
      memory.allocate("interior alone", ScalarKind::F64, static_cast<int64_t>(split.size()));
  Schedule s;
  s.fill_zero("zero", alone);
  s.launch_part("interior", apart.interior, inputs, alone, runtime::Range::of(offset),
                runtime::Range::of(size));
  s.run(memory);
  const std::vector<double> got = download(memory, alone);
  std::size_t wrong = 0, inside = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    bool in = true;
    for (std::size_t a = 0, rest = i; a < offset.size(); rest /= global[static_cast<int>(a)], ++a) {
      const std::size_t at = rest % global[static_cast<int>(a)];
      in = in && at >= m && at < global[static_cast<int>(a)] - m;
    }
    inside += in;
    wrong += got[i] != (in ? split[i] : 0.0);
  }
  CHECK(inside > 0);
  CHECK(wrong == 0);
}

// The program's kernel with its interior apart against the whole kernel (to the bit) and the
// interpreter (to rounding); `grids`: the inputs in order, the first the output's shape (and,
// in place, the output itself).
void check_split(const Expr& program, const std::vector<Grid>& grids, const SplitCase& how = {}) {
  const bool in_place = how.in_place;
  const Expr lowered = rewrite::lower_default(program);
  codegen::CodegenOptions options;
  options.in_place = in_place;
  codegen::Kernel whole = codegen::generate_kernel(lowered, options);
  options.interior_only = true;
  options.colour_parity = how.colour_parity;
  options.colour_pair_copy = how.pair_copy;
  options.interior_rows = how.rows;
  codegen::Kernel interior = codegen::generate_kernel(
      how.interior_form ? rewrite::lower_default(*how.interior_form) : lowered, options);
  if (auto* collected = testing::collected_kernels()) {
    collected->push_back(whole);
    collected->push_back(interior);
    return;
  }
  INFO(interior.source);
  REQUIRE(interior.interior_margin > 0);
  CHECK(interior.colour_strided == (how.colour_parity >= 0));
  CHECK(interior.interior_rows == (how.rows || how.colour_parity >= 0));
  CHECK(!whole.colour_strided);
  CHECK(whole.interior_margin == 0); // asked of interior-only kernels alone
  CHECK(whole.source.find("} else {") != std::string::npos);
  CHECK(interior.source.find("} else {") == std::string::npos);
  interior.interior_margin = std::max(interior.interior_margin, how.form_margin);

  auto& session = testing::multigrid_session();
  DeviceMemory memory(session);
  auto upload = [&](const std::string& name) {
    std::vector<BufferId> ids;
    for (std::size_t i = 0; i < grids.size(); ++i) {
      ids.push_back(memory.allocate(cat(name, i), ScalarKind::F64, grids[i].level.points()));
      write_values(memory, ids.back(), grids[i].values);
    }
    return ids;
  };
  const std::vector<BufferId> split_in = upload("split "), whole_in = upload("whole ");
  const int64_t points =
      static_cast<int64_t>(whole.params.back().element_count.as_constant().value());
  const BufferId split_out =
      in_place ? split_in[0] : memory.allocate("split", ScalarKind::F64, points);
  const BufferId whole_out =
      in_place ? whole_in[0] : memory.allocate("whole", ScalarKind::F64, points);

  auto apart = compile(session, whole, {}, "whole");
  apart->interior = compile(session, interior, {}, "interior");
  apart->interior_margin = interior.interior_margin;
  const int dims = whole.launch.dims;
  for (unsigned inside = 0; inside < how.slab_forms.size(); ++inside) {
    const std::optional<Expr>& form = how.slab_forms[inside];
    codegen::CodegenOptions slab{.in_place = in_place};
    if (how.regions) // the parts of one mask in one launch
      slab.index_gaps = region_gaps(inside, apart->global, apart->interior_margin);
    apart->slabs.push_back(
        form ? compile(session, codegen::generate_kernel(rewrite::lower_default(*form), slab), {},
                       "slab")
             : nullptr);
  }
  apart->slab_regions = how.regions;
  Schedule s;
  s.launch("split", apart, split_in, split_out);
  // The interior and a launch per inside mask, or its 2d slabs.
  CHECK(s.steps().size() == static_cast<std::size_t>(how.regions ? 1 << dims : 1 + 2 * dims));
  s.launch("whole", compile(session, whole, {}, "whole"), whole_in, whole_out);
  // The parts' bytes (each launch's share of the points) add up to the whole kernel's.
  const auto bytes = s.bytes_by_label(memory);
  CHECK(bytes.at("split") == doctest::Approx(bytes.at("whole")).epsilon(1e-12));
  s.run(memory);

  std::vector<Data> inputs;
  for (const Grid& g : grids)
    inputs.push_back(Data::from_flat(ScalarKind::F64, g.level.sizes(), g.values));
  const std::vector<double> expected = evaluate(program, inputs).flatten();
  const std::vector<double> got = download(memory, split_out),
                            reference = download(memory, whole_out);
  REQUIRE(got.size() == expected.size());
  std::size_t differ = 0;
  double scale = 1, error = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    differ +=
        std::abs(got[i] - reference[i]) > how.to_whole * std::max(1.0, std::abs(reference[i]));
    scale = std::max(scale, std::abs(expected[i]));
    error = std::max(error, std::abs(got[i] - expected[i]));
  }
  CHECK(differ == 0);
  CHECK(error <= 1e-12 * scale);
  if ((how.rows || !how.pair_copy.empty()) && !in_place)
    check_rows_guarded(*apart, memory, split_in, got);
}

} // namespace

TEST_CASE("split launch: interior apart equals the whole kernel (1-3-D, boundaries, in place)") {
  testing::with_kernels_built_together([] {
    for (int d = 1; d <= 3; ++d) {
      Level level{d, d == 3 ? 12 : 20, ScalarKind::F64, Centring::Cell};
      CAPTURE(level.describe());
      const Grid u = random_input(level, 71), f = random_input(level, 72);
      for (Boundary bc : {Boundary::antisymmetric(), Boundary::mirror(), Boundary::wrap()}) {
        CAPTURE(bc.to_string());
        check_split(residual(level, bc), {u, f});
      }
      // The interior on whole rows (a GPU's launch), the wrap boundary reading across the ends.
      check_split(residual(level, Boundary::wrap()), {u, f}, {.rows = true});
      check_split(jacobi(level, Boundary::mirror(), 0.8), {u, f});
      check_split(gsrb_half_sweep(level, Boundary::antisymmetric(), 1), {u, f}, {.in_place = true});
      // The variable-coefficient operator: its coefficients padded with their own boundary.
      std::vector<Grid> grids{u, f, random_input(level, 73, 1.5)};
      for (int k = 0; k < d; ++k)
        grids.push_back(random_input(level, 74 + static_cast<uint32_t>(k), 1.5));
      HelmholtzCoefficients c{0.5, 1.0};
      check_split(helmholtz_residual(level, Boundary::antisymmetric(), c), grids, {.rows = true});
      // Interpolation reads a coarse grid around each fine point's parent.
      const Level coarse = level.coarser();
      check_split(prolong_add(coarse, Interpolation::Linear, Boundary::antisymmetric()),
                  {u, random_input(coarse, 79)});
    }
  });
}

namespace {

// Every dimension count, even and odd extents (a row's last point of the colour, or a pair, may
// lie past the interior).
std::vector<Level> colour_test_levels() {
  return {Level{1, 21, ScalarKind::F64, Centring::Cell},
          Level{2, 12, ScalarKind::F64, Centring::Cell},
          Level{3, 11, ScalarKind::F64, Centring::Cell}};
}

} // namespace

TEST_CASE("split launch: an in-place half-sweep's interior computes its colour's points alone") {
  testing::with_kernels_built_together([] {
    for (const Level& level : colour_test_levels()) {
      CAPTURE(level.describe());
      const Grid u = random_input(level, 91), f = random_input(level, 92);
      std::vector<Grid> grids{u, f, random_input(level, 93, 1.5)};
      for (int k = 0; k < level.dims; ++k)
        grids.push_back(random_input(level, 94 + static_cast<uint32_t>(k), 1.5));
      std::vector<Boundary> boundaries{Boundary::antisymmetric(), Boundary::mirror()};
      if (level.n % 2 == 0) // red-black on a torus of odd side is not a colouring
        boundaries.push_back(Boundary::wrap());
      for (int colour : {0, 1}) {
        CAPTURE(colour);
        for (Boundary bc : boundaries) {
          CAPTURE(bc.to_string());
          check_split(gsrb_half_sweep(level, bc, colour), {u, f},
                      {.in_place = true, .colour_parity = colour});
        }
        if (level.dims == 3)
          check_split(
              helmholtz_gsrb_half_sweep(level, Boundary::antisymmetric(), {0.7, 1.3}, colour),
              grids, {.in_place = true, .colour_parity = colour});
      }
    }
  });
}

TEST_CASE("split launch: an out-of-place half-sweep's interior computes its colour's points in "
          "pairs") {
  // A work-item a pair of points along x: the one of the colour computed, the other copied from
  // u. Odd extents (a pair may reach past the interior) and margins of 1 (a pair may straddle
  // the interior's edge); a copy that skipped its guard or a wrong partner fails the bits.
  testing::with_kernels_built_together([] {
    for (const Level& level : colour_test_levels()) {
      CAPTURE(level.describe());
      const Grid u = random_input(level, 71), f = random_input(level, 72);
      for (int colour : {0, 1}) {
        CAPTURE(colour);
        check_split(gsrb_half_sweep(level, Boundary::antisymmetric(), colour), {u, f},
                    {.colour_parity = colour, .pair_copy = "u"});
      }
    }
  });
}

TEST_CASE("split launch: a colour pair's copy names an input of the output's type") {
  const Level level{2, 12, ScalarKind::F64, Centring::Cell};
  const Expr lowered = rewrite::lower_default(gsrb_half_sweep(level, Boundary::mirror(), 0));
  codegen::CodegenOptions options{.interior_only = true, .colour_parity = 0};
  options.colour_pair_copy = "nothing";
  CHECK_THROWS_WITH(codegen::generate_kernel(lowered, options),
                    doctest::Contains("no input named 'nothing'"));
  options.colour_pair_copy = "u";
  const codegen::Kernel pairs = codegen::generate_kernel(lowered, options);
  CHECK(pairs.colour_strided);
  CHECK(pairs.source.find("pair0 = gid0 ^ 1") != std::string::npos);
}

// HPGMG-FV's 4th-order operators with their interior form (no extrapolations) on the interior:
// what the solver runs on levels of kSplitLaunchPoints or more on every device.
namespace {

struct Fv4Case {
  Level level{3, 12, ScalarKind::F64, Centring::Cell};
  std::vector<Grid> grids;
  HelmholtzCoefficients c{0.7, 1.3, true, 1.25, 4};
  Boundary bc = Boundary::antisymmetric();
};

Fv4Case fv4_case() {
  Fv4Case fv4;
  const Level& level = fv4.level;
  std::vector<Grid> grids{random_input(level, 81), random_input(level, 82),
                          random_input(level, 83, 1.5)};
  for (int k = 0; k < 3; ++k)
    grids.push_back(random_input(level, 84 + static_cast<uint32_t>(k), 1.5));
  for (auto& beta : grids)
    for (auto& x : beta.values)
      x = 1.5 + 0.25 * x; // near 1 as smooth coefficients are: the diagonal stays positive
  fv4.grids = grids;
  return fv4;
}

} // namespace

TEST_CASE("split launch: HPGMG-FV's 4th order with its interior form equals the whole kernel") {
  const auto [level, grids, c, bc] = fv4_case();
  const int64_t margin = detail::kFv4InteriorMargin;
  // The interior form reads no further than it needs (u 2 cells, beta 1 face along a tangent):
  // its kernel is exact 2 cells from the edges, so the slabs around it are 2 cells deep.
  codegen::CodegenOptions options;
  options.interior_only = true;
  CHECK(codegen::generate_kernel(rewrite::lower_default(detail::fv4_residual(
                                     level, c, false, {detail::Fv4Region::Interior})),
                                 options)
            .interior_margin == margin);
  check_split(
      helmholtz_residual(level, bc, c), grids,
      {.interior_form = detail::fv4_residual(level, c, false, {detail::Fv4Region::Interior}),
       .form_margin = margin});
  // One colour (the other's kernel differs by its mask alone); Jacobi's form is the same
  // operator over the same reads (test_fv4 checks both against loops).
  check_split(
      helmholtz_gsrb_half_sweep(level, bc, c, 1), grids,
      {.interior_form = detail::fv4_gsrb_half_sweep(level, c, 1, {detail::Fv4Region::Interior}),
       .form_margin = margin});
  // As the solver runs its half-sweeps: the colour's points in pairs, the other copied; both
  // colours, the first with HPGMG's a = 0 (alpha not read).
  for (int colour : {0, 1}) {
    CAPTURE(colour);
    HelmholtzCoefficients coefficients = c;
    coefficients.a = colour == 0 ? 0.0 : c.a;
    check_split(helmholtz_gsrb_half_sweep(level, bc, coefficients, colour), grids,
                {.interior_form = detail::fv4_gsrb_half_sweep(level, coefficients, colour,
                                                              {detail::Fv4Region::Interior}),
                 .form_margin = margin,
                 .colour_parity = colour,
                 .pair_copy = "u"});
  }
}

// Each slab's form (the extrapolations of the axes it reaches the ends of) on its slab: the
// whole kernel's result to the bit. A red-black half-sweep here; the residual and the restricted
// residual in the extended tier (PoCL's builds take a minute, unoptimised).
std::vector<std::optional<Expr>> fv4_slabs(const Level& level,
                                           const std::function<Expr(detail::Fv4Region)>& form,
                                           bool regions = false) {
  std::vector<std::optional<Expr>> slabs(std::size_t{1} << level.dims);
  for (unsigned inside = 0; inside + 1 < slabs.size(); ++inside)
    if (regions)
      slabs[inside] = form({detail::Fv4Region::Slab, inside});
  for (int axis = 0; axis < level.dims && !regions; ++axis) {
    const unsigned inside = slab_inside(level.dims, axis);
    slabs[inside] = form({detail::Fv4Region::Slab, inside});
  }
  return slabs;
}

TEST_CASE("split launch: HPGMG-FV's 4th order with its slabs' forms equals the whole kernel") {
  const auto [level, grids, c, bc] = fv4_case();
  using detail::Fv4Region;
  // The slab along x is inside along z and y, the one along y along z, the one along z nowhere.
  CHECK(slab_inside(3, 0) == 3u);
  CHECK(slab_inside(3, 1) == 1u);
  CHECK(slab_inside(3, 2) == 0u);
  auto gsrb = [&](Fv4Region region) { return detail::fv4_gsrb_half_sweep(level, c, 0, region); };
  // The interior on whole rows, as a GPU launches it (Tuner::add_interior).
  check_split(helmholtz_gsrb_half_sweep(level, bc, c, 0), grids,
              {.interior_form = gsrb({Fv4Region::Interior}),
               .form_margin = detail::kFv4InteriorMargin,
               .slab_forms = fv4_slabs(level, gsrb),
               .rows = true});
  // The parts as the interior's faces, edges and corners, each with its own form, those of one
  // mask in one launch (OperatorSpec::slab_regions: a GPU's on ranges of 256^3 or more). Their
  // sums differ where the compiler contracts other products into FMAs.
  check_split(helmholtz_gsrb_half_sweep(level, bc, c, 0), grids,
              {.interior_form = gsrb({Fv4Region::Interior}),
               .form_margin = detail::kFv4InteriorMargin,
               .slab_forms = fv4_slabs(level, gsrb, true),
               .regions = true,
               .to_whole = 1e-15});
  // A slab's form inside along every dimension would be the interior's.
  CHECK_THROWS_WITH_AS(detail::fv4_residual(level, c, false, {Fv4Region::Slab, 7u}),
                       doctest::Contains("inside along every dimension (mask 7 of 3"),
                       tessera::InternalError);
}

TEST_CASE("split launch: HPGMG-FV's residuals with their slabs' forms equal the whole kernels" *
          doctest::test_suite("extended")) {
  const auto [level, grids, c, bc] = fv4_case();
  using detail::Fv4Region;
  for (bool restricted : {false, true}) {
    auto residual = [&](Fv4Region region) {
      return detail::fv4_residual(level, c, restricted, region);
    };
    check_split(restricted ? helmholtz_residual_restricted(level, bc, c)
                           : helmholtz_residual(level, bc, c),
                grids,
                {.interior_form = residual({Fv4Region::Interior}),
                 .form_margin = restricted ? 1 : detail::kFv4InteriorMargin,
                 .slab_forms = fv4_slabs(level, residual)});
  }
}

// The extended tier (CMakeLists.txt): the restricted residual's forms.
TEST_CASE("split launch: HPGMG-FV's restricted residual with its interior form equals the whole "
          "kernel" *
          doctest::test_suite("extended")) {
  const auto [level, grids, c, bc] = fv4_case();
  // The restricted residual's coarse points 1 or more from every boundary.
  check_split(helmholtz_residual_restricted(level, bc, c), grids,
              {.interior_form = detail::fv4_residual(level, c, true, {detail::Fv4Region::Interior}),
               .form_margin = 1});
}

TEST_CASE("split launch: an index gap the kernel cannot take is an error") {
  const Level level{3, 8, ScalarKind::F64, Centring::Cell};
  const Expr lowered = rewrite::lower_default(residual(level, Boundary::antisymmetric()));
  auto gapped = [&](std::array<int64_t, 2> gap, int axis, bool interior_only = false) {
    codegen::CodegenOptions options{.interior_only = interior_only};
    options.index_gaps[static_cast<std::size_t>(axis)] = gap;
    return codegen::generate_kernel(lowered, options);
  };
  // Two ends of 2 and the middle skipped: i < 2 stays, else i + 4.
  CHECK(gapped({2, 4}, 1).source.find("((int)get_global_id(1) >= 2 ? 4 : 0)") != std::string::npos);
  CHECK_THROWS_WITH_AS(gapped({2, 3}, 0), doctest::Contains("does not leave two ends of 2 points"),
                       Error);
  CHECK_THROWS_WITH_AS(gapped({2, 4}, 0, true), doctest::Contains("not an interior version"),
                       Error);
  const Expr line = rewrite::lower_default(
      residual(Level{1, 8, ScalarKind::F64, Centring::Cell}, Boundary::antisymmetric()));
  codegen::CodegenOptions beyond;
  beyond.index_gaps[2] = {2, 4};
  CHECK_THROWS_WITH_AS(codegen::generate_kernel(line, beyond),
                       doctest::Contains("an index gap along dimension 2 of a kernel of 1"), Error);
}

TEST_CASE("split launch: which kernels have an interior version, and when the tuner splits") {
  Level level{3, 8, ScalarKind::F64, Centring::Cell};
  codegen::CodegenOptions options;
  options.interior_only = true;
  // The 2^3 average reads no boundary: no interior version.
  CHECK(codegen::generate_kernel(rewrite::lower_default(restrict_average(level)), options)
            .interior_margin == 0);

  auto& session = testing::multigrid_session();
  REQUIRE(session.device().type == "CPU");
  Tuner tuner(session, {});
  auto spec_at = [&](int64_t n, bool split) {
    OperatorSpec spec{"residual", std::vector<int64_t>(3, n), [](const std::vector<int64_t>& e) {
                        return residual(Level{3, e[0], ScalarKind::F64, Centring::Cell},
                                        Boundary::antisymmetric());
                      }};
    spec.split_interior = split;
    return spec;
  };
  // A CPU's default is the vectorized kernel (Tuner::cpu_default), not split; an operator with
  // a form of its own for its interior (here the same program) keeps the plain lowering, split.
  auto vectorized = tuner.kernel(spec_at(64, true));
  CHECK(vectorized->variant == "vectorized, a CPU's default");
  CHECK_FALSE(vectorized->interior);
  auto own_form = [&](int64_t n, bool split) {
    OperatorSpec spec = spec_at(n, split);
    spec.interior_build = spec.build;
    return spec;
  };
  const int64_t large = 64; // kSplitLaunchPoints
  REQUIRE(large * large * large >= kSplitLaunchPoints);
  Tuner own(session, {}); // the tuner keeps a kernel by its operator's program
  auto split = own.kernel(own_form(large, true));
  auto whole = own.kernel(own_form(large, false));
  REQUIRE(split->interior);
  CHECK(split->interior_margin == 1);
  CHECK_FALSE(whole->interior); // the same operator unsplit is another kernel
  CHECK_FALSE(own.kernel(own_form(16, true))->interior); // below kSplitLaunchPoints
  CHECK(split->slabs.empty()); // no slab forms: the whole kernel on the slabs

  // With slab forms, one kernel a slab by its inside mask, each from slab_build's form for that
  // mask (told apart here by its boundary's value); the other masks have none.
  auto with_slabs = spec_at(large, true);
  with_slabs.interior_build = with_slabs.build;
  with_slabs.slab_build = [](const std::vector<int64_t>& e, unsigned inside) {
    return residual(Level{3, e[0], ScalarKind::F64, Centring::Cell},
                    Boundary::constant(ScalarValue::make(ScalarKind::F64, 17.25 + inside)));
  };
  with_slabs.slab_regions = true; // a GPU's alone: this CPU keeps the slabs
  Tuner fresh(session, {});       // the tuner keeps a kernel by its operator's program
  auto slabbed = fresh.kernel(with_slabs);
  CHECK_FALSE(slabbed->slab_regions);
  REQUIRE(slabbed->slabs.size() == 8);
  for (unsigned inside = 0; inside < 8; ++inside) {
    const bool slab = inside == 0 || inside == 1 || inside == 3; // slab_inside(3, 2 .. 0)
    REQUIRE(static_cast<bool>(slabbed->slabs[inside]) == slab);
    if (slab)
      CHECK(slabbed->slabs[inside]->code.source.find(cat(17.25 + inside)) != std::string::npos);
  }
}

TEST_CASE("split launch: a GPU's slabs along x take a work-group across the next axes") {
  const std::vector<std::size_t> items{1024, 1024, 64};
  auto group = [&](std::vector<std::size_t> size, std::size_t max_group = 1024) {
    const runtime::Range local = narrow_part_group(size, max_group, items);
    std::vector<std::size_t> got;
    std::size_t total = 1;
    for (int a = 0; a < local.dims(); ++a) {
      got.push_back(local[a]);
      total *= local[a];
      CHECK(size[static_cast<std::size_t>(a)] % local[a] == 0); // OpenCL 1.2: local divides
    }
    CHECK(total <= std::min<std::size_t>(256, max_group));
    return got;
  };
  // HPGMG's slabs at 512^3 and 256^3: the slab's width, then the largest divisor that fits.
  CHECK(group({2, 508, 508}) == std::vector<std::size_t>{2, 127, 1});
  CHECK(group({2, 252, 252}) == std::vector<std::size_t>{2, 126, 1});
  CHECK(group({2, 60, 60}) == std::vector<std::size_t>{2, 60, 2});
  CHECK(group({4, 511, 7}) == std::vector<std::size_t>{4, 7, 7});  // 511 = 7 x 73
  CHECK(group({2, 8, 200}) == std::vector<std::size_t>{2, 8, 10}); // 200's largest up to 16
  // A device's limits: its largest work-group, and the items along each axis.
  CHECK(group({2, 508, 508}, 64) == std::vector<std::size_t>{2, 4, 4});
  CHECK(group({3, 100, 100}, 128) == std::vector<std::size_t>{3, 25, 1});
}

TEST_CASE("split launch: a GPU's interior on whole rows takes 32 x 4 x 1 where they divide") {
  auto group = [](std::vector<std::size_t> size, std::size_t max_group = 1024,
                  std::vector<std::size_t> items = {1024, 1024, 64}) {
    const runtime::Range local = interior_rows_group(size, max_group, items);
    std::vector<std::size_t> got;
    for (int a = 0; a < local.dims(); ++a) {
      got.push_back(local[a]);
      CHECK(size[static_cast<std::size_t>(a)] % local[a] == 0); // OpenCL 1.2: local divides
    }
    return got;
  };
  // HPGMG's interiors: whole rows of 512 and 256, 508 and 252 rows and planes (2 cells in).
  CHECK(group({512, 508, 508}) == std::vector<std::size_t>{32, 4, 1});
  CHECK(group({256, 252, 252}) == std::vector<std::size_t>{32, 4, 1});
  CHECK(group({100, 94, 94}) == std::vector<std::size_t>{25, 2, 1}); // the largest divisors
  CHECK(group({512, 510}) == std::vector<std::size_t>{32, 3});       // 2-D
  CHECK(group({512, 508, 508}, 64) == std::vector<std::size_t>{32, 2, 1});
  CHECK(group({512, 508, 508}, 1024, {16, 16, 16}) == std::vector<std::size_t>{16, 4, 1});
}
