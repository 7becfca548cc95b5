// Poisson's red-black step as one wavefront (multigrid/Wavefront.h): the kernel against the two
// half-sweeps launched apart (equal to the bit) and the interpreter (to rounding), over tiles and
// segments that do and do not divide the grid, both parities, every boundary it applies to, cell-
// and vertex-centred grids, f64 and f32; the solver's residual histories with and without it;
// where it does not apply.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <map>

#include "DeviceSession.h"
#include "codegen/Kernel.h"
#include "multigrid/Hierarchy.h"
#include "multigrid/Layout.h"
#include "multigrid/Operators.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "multigrid/Wavefront.h"
#include "primitives/Interpreter.h"
#include "rewrite/Lower.h"
#include "runtime/Session.h"
#include "tests/multigrid/GridData.h"

using namespace tessera;
using namespace tessera::multigrid;
using tessera::testing::mg::random_grid;

namespace {

codegen::Kernel plain(const Expr& program) {
  return codegen::generate_kernel(rewrite::lower_default(program));
}

// `red` then `black` (each from the solution and the other grids) `steps` times, as launches
// apart and under the interpreter; `grids` are u, f and the coefficients. The launches' result.
std::vector<double> half_sweeps_apart(const Expr& red, const Expr& black, const Level& level,
                                      const std::vector<std::vector<double>>& grids, int steps) {
  CAPTURE(steps);
  auto& session = testing::multigrid_session();
  DeviceMemory memory(session);
  const auto [inputs, data] = testing::mg::upload(memory, level, grids);
  const auto red_k = compile(session, plain(red), {}, "red");
  const auto black_k = compile(session, plain(black), {}, "black");
  const std::array<BufferId, 2> u{inputs[0], memory.allocate("u", level.kind, level.points())};
  Schedule apart;
  std::vector<Data> interpreted = data;
  std::vector<BufferId> from = inputs;
  for (int step = 0; step < steps; ++step)
    for (int half = 0; half < 2; ++half) {
      from[0] = u[half];
      apart.launch(half ? "black" : "red", half ? black_k : red_k, from, u[1 - half]);
      interpreted[0] = evaluate(half ? black : red, interpreted);
    }
  apart.run(memory);
  const std::vector<double> expected = read_values(memory, u[0]);
  const std::vector<double> reference = interpreted[0].flatten();
  std::size_t changed = 0;
  double scale = 1, error = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    changed += expected[i] != grids[0][i];
    scale = std::max(scale, std::abs(reference[i]));
    error = std::max(error, std::abs(expected[i] - reference[i]));
  }
  CHECK(changed > expected.size() / 2);
  CHECK(error <= (level.kind == ScalarKind::F64 ? 1e-12 : 2e-5) * scale);
  return expected;
}

// The half-sweeps apart (half_sweeps_apart) against one wavefront of each shape, its steps a pass
// (equal to the bit).
void check_wavefront(const Expr& red, const Expr& black, int red_parity, const Level& level,
                     Boundary bc, const std::vector<std::vector<double>>& grids,
                     const std::vector<WavefrontShape>& shapes) {
  CAPTURE(level.describe());
  CAPTURE(red_parity);
  REQUIRE(poisson_wavefront_why_not(level, bc) == "");
  std::map<int, std::vector<double>> expected;
  for (const WavefrontShape& shape : shapes)
    if (!expected.count(shape.steps))
      expected[shape.steps] = half_sweeps_apart(red, black, level, grids, shape.steps);

  auto& session = testing::multigrid_session();
  DeviceMemory memory(session);
  const auto [inputs, data] = testing::mg::upload(memory, level, grids);
  const codegen::Kernel red_code = plain(red);
  const BufferId result = memory.allocate("wavefront", level.kind, level.points());
  std::vector<BufferId> buffers = inputs;
  buffers.push_back(result);
  for (const WavefrontShape& shape : shapes) {
    CAPTURE(shape.tile_x);
    CAPTURE(shape.tile_y);
    CAPTURE(shape.segments);
    CAPTURE(shape.rows);
    CAPTURE(shape.steps);
    // Values no step computes: a point the wavefront does not write shows.
    write_values(memory, result, random_grid(level, 99, 1e3));
    Schedule one;
    one.launch_over("wavefront",
                    poisson_wavefront_kernel(session, red_code, level, bc, red_parity, shape),
                    buffers, 0);
    one.run(memory);
    const std::vector<double> got = read_values(memory, result);
    std::size_t differ = 0;
    for (std::size_t i = 0; i < got.size(); ++i)
      differ += got[i] != expected[shape.steps][i];
    CHECK(differ == 0);
  }
}

void check_poisson(const Level& level, Boundary bc, const std::vector<WavefrontShape>& shapes) {
  const auto u = random_grid(level, 11), f = random_grid(level, 12);
  for (int red : {0, 1})
    check_wavefront(gsrb_half_sweep(level, bc, red), gsrb_half_sweep(level, bc, 1 - red), red,
                    level, bc, {u, f}, shapes);
}

} // namespace

TEST_CASE("wavefront: Poisson's half-sweeps in one pass, tiles and segments that do and do not "
          "divide the grid, rows a work-item, both parities, every local boundary, both "
          "centrings, f64 and f32") {
  const Level cells{3, 12, ScalarKind::F64, Centring::Cell};
  // Rows a work-item (the last number): one, or several rows of the tile each (3 here, 4 in the
  // GPU's shape, 2 in f32 below).
  check_poisson(cells, Boundary::antisymmetric(),
                {{4, 2, 1}, {6, 3, 4}, {16, 8, 2}, {2, 1, 12}, {4, 6, 1, 3}});
  runtime::Device gpu = testing::multigrid_session().device(); // a GPU's shape, run on PoCL
  gpu.type = "GPU";
  gpu.compute_units = 132;
  check_poisson(cells, Boundary::mirror(), {wavefront_shape(gpu, cells.sizes())});
  for (Boundary bc : {Boundary::mirror(), Boundary::clamp(),
                      Boundary::constant(ScalarValue::make(ScalarKind::F64, 0.25))})
    check_poisson(cells, bc, {{6, 3, 4}});
  const Level vertices{3, 9, ScalarKind::F64, Centring::Vertex};
  check_poisson(vertices, Boundary::constant(ScalarValue::make(ScalarKind::F64, 0.0)),
                {{10, 2, 9}});
  const Level narrow{3, 10, ScalarKind::F32, Centring::Cell};
  check_poisson(narrow, Boundary::antisymmetric(), {{4, 4, 3, 2}});
}

TEST_CASE("wavefront: several red-black steps a pass (temporal blocking) equal as many steps of "
          "half-sweeps, across segments, tiles that do not divide, both parities and "
          "centrings, f64 and f32") {
  const Level cells{3, 12, ScalarKind::F64, Centring::Cell};
  // {tile x, tile y, segments, rows a work-item, steps a pass}: segments of 1-12 planes, some
  // thinner than the rings of planes each recomputes; a tile as wide as the grid and wider.
  check_poisson(cells, Boundary::antisymmetric(),
                {{4, 2, 3, 1, 2}, {2, 1, 12, 1, 2}, {16, 8, 2, 2, 3}, {4, 6, 1, 3, 4}});
  runtime::Device gpu = testing::multigrid_session().device(); // a GPU's shape, run on PoCL
  gpu.type = "GPU";
  gpu.compute_units = 132;
  check_poisson(cells, Boundary::mirror(), {wavefront_shape(gpu, cells.sizes(), 2)});
  const Level vertices{3, 9, ScalarKind::F64, Centring::Vertex}; // and a constant boundary
  check_poisson(vertices, Boundary::constant(ScalarValue::make(ScalarKind::F64, 0.0)),
                {{4, 4, 9, 2, 3}});
  const Level narrow{3, 10, ScalarKind::F32, Centring::Cell};
  check_poisson(narrow, Boundary::antisymmetric(), {{4, 4, 3, 2, 2}});
}

TEST_CASE("wavefront: where it does not apply, and the shape chosen for a device") {
  const Boundary anti = Boundary::antisymmetric();
  CHECK(poisson_wavefront_why_not(Level{2, 64, ScalarKind::F64}, anti).find("3-D") !=
        std::string::npos);
  CHECK(poisson_wavefront_why_not(Level{3, 64, ScalarKind::F64}, Boundary::wrap())
            .find("far from the point") != std::string::npos);
  Level box{3, 64, ScalarKind::F64};
  box.box = {34, 66, 66};
  CHECK(poisson_wavefront_why_not(box, anti).find("box") != std::string::npos);

  SolverOptions o;
  const Level big{3, 256, ScalarKind::F64, Centring::Cell};
  // By default on a GPU (f64 and f32), outside the explorer's choices; asked for anywhere.
  CHECK_FALSE(wavefront_half_sweeps(o, false, big, anti, "CPU"));
  CHECK(wavefront_half_sweeps(o, false, big, anti, "GPU"));
  CHECK(wavefront_half_sweeps(o, false, Level{3, 256, ScalarKind::F32}, anti, "GPU"));
  o.tuning.mode = TuneMode::Explore;
  CHECK_FALSE(wavefront_half_sweeps(o, false, big, anti, "GPU"));
  o.tuning.mode = TuneMode::Default;
  o.gauss_seidel_storage = HalfSweepStorage::OutOfPlace;
  CHECK_FALSE(wavefront_half_sweeps(o, false, big, anti, "GPU"));
  o.gauss_seidel_storage = HalfSweepStorage::Wavefront;
  CHECK(wavefront_half_sweeps(o, false, big, anti, "CPU"));
  CHECK(wavefront_half_sweeps(o, false, Level{3, 256, ScalarKind::F32}, anti, "CPU"));
  CHECK(wavefront_half_sweeps(o, false, Level{3, 128, ScalarKind::F64}, anti, "CPU"));
  CHECK_FALSE(wavefront_half_sweeps(o, false, Level{3, 64, ScalarKind::F64}, anti, "CPU"));
  o.wavefront_side = 64; // lower, down to kWavefrontSide
  CHECK(wavefront_half_sweeps(o, false, Level{3, 64, ScalarKind::F64}, anti, "CPU"));
  o.wavefront_side = 1;
  CHECK_FALSE(wavefront_half_sweeps(o, false, Level{3, 16, ScalarKind::F64}, anti, "CPU"));
  CHECK_FALSE(wavefront_half_sweeps(o, true, big, anti, "CPU")); // a rank's box
  CHECK_FALSE(wavefront_half_sweeps(o, false, big, Boundary::wrap(), "CPU"));
  CHECK_FALSE(wavefront_half_sweeps(o, false, Level{2, 64, ScalarKind::F64}, anti, "CPU"));
  o.tuning.named["gsrb-red"] = 3;
  CHECK_FALSE(wavefront_half_sweeps(o, false, big, anti, "CPU"));

  // The CPU's shape and a GPU's (the same device described as a GPU of 132 compute units).
  const runtime::Device& cpu = testing::multigrid_session().device();
  runtime::Device gpu = cpu;
  gpu.type = "GPU";
  gpu.compute_units = 132;
  CHECK(wavefront_shape(cpu, {512, 512, 512}).rows == 1);
  CHECK(wavefront_shape(gpu, {512, 512, 512}).rows == 4);
  gpu.local_mem_size = 48 * 1024;
  CHECK(wavefront_local_bytes(wavefront_shape(gpu, {512, 512, 512}), ScalarKind::F64) <=
        32 * 1024);            // OpenCL's least local memory
  runtime::Device small = gpu; // a device with less: a smaller tile that fits
  small.local_mem_size = 12 * 1024;
  const WavefrontShape fitted = wavefront_shape(small, {512, 512, 512});
  CHECK(wavefront_local_bytes(fitted, ScalarKind::F64) <= 12 * 1024);
  CHECK(fitted.tile_x < 32);
  for (const auto& [device, sizes] :
       std::vector<std::pair<runtime::Device, std::vector<int64_t>>>{{cpu, {512, 512, 512}},
                                                                     {cpu, {9, 17, 33}},
                                                                     {cpu, {7, 7, 7}},
                                                                     {gpu, {512, 512, 512}},
                                                                     {gpu, {9, 6, 33}},
                                                                     {gpu, {7, 7, 7}},
                                                                     {small, {512, 512, 512}}}) {
    for (int steps = 1; steps <= kMostWavefrontSteps; ++steps) {
      CAPTURE(device.type);
      CAPTURE(steps);
      const WavefrontShape s = wavefront_shape(device, sizes, steps);
      CHECK(s.steps == steps);
      CHECK(s.rows >= 1);
      CHECK(s.tile_y % s.rows == 0);
      CHECK(s.tile_x >= 2);
      CHECK(s.tile_x % 2 == 0);
      CHECK(s.tile_x <= sizes[2] + 1);
      CHECK(s.tile_y <= sizes[1]);
      CHECK(s.segments >= 1);
      // Every segment holds planes, at least kWavefrontMinSegment a step unless the grid is
      // thinner.
      const int64_t segment = (sizes[0] + s.segments - 1) / s.segments;
      CHECK((s.segments - 1) * segment < sizes[0]);
      CHECK((segment >= kWavefrontMinSegment * steps || s.segments == 1));
      // At most one wave of work-groups, 4 a compute unit, and as many as fill it: segments
      // more would start a second wave, unless one segment already does, or segments of the
      // least length cannot.
      const int64_t tiles = ((sizes[2] + s.tile_x - 1) / s.tile_x) *
                            ((sizes[1] + s.tile_y - 1) / s.tile_y),
                    wave = 4 * device.compute_units;
      CHECK((s.segments == 1 || s.segments * tiles <= wave));
      CHECK(((s.segments + 1) * tiles > wave || segment < 2 * kWavefrontMinSegment * steps));
    }
  }
  // Two steps a pass fit a smaller tile into 48 KiB; where no tile fits, the level's half-sweeps
  // run apart (wavefront_fits).
  const WavefrontShape two = wavefront_shape(gpu, {512, 512, 512}, 2);
  CHECK(two.tile_x * two.tile_y < wavefront_shape(gpu, {512, 512, 512}, 1).tile_x *
                                      wavefront_shape(gpu, {512, 512, 512}, 1).tile_y);
  CHECK(wavefront_local_bytes(two, ScalarKind::F64) <= 48 * 1024);
  CHECK(wavefront_fits(gpu, two, ScalarKind::F64));
  CHECK_FALSE(wavefront_fits(small, wavefront_shape(small, {512, 512, 512}, 4), ScalarKind::F64));
  CHECK(wavefront_fits(small, wavefront_shape(small, {512, 512, 512}, 1), ScalarKind::F64));
}

namespace {

// Each run solved with separate out-of-place half-sweeps and with the wavefront: the same
// residual history to the bit; fewer bytes moved by the smoother (f64 and f32 solves).
void check_wavefront_solves(std::vector<std::pair<Problem, SolverOptions>> runs) {
  for (auto& [problem, options] : runs) {
    CAPTURE(problem.name);
    options.gauss_seidel_storage = HalfSweepStorage::OutOfPlace;
    Solver apart(testing::multigrid_session(), problem, options);
    SolveResult separate = apart.solve();
    options.gauss_seidel_storage = HalfSweepStorage::Wavefront;
    options.wavefront_side = kWavefrontSide; // the small grids a test can solve
    Solver one(testing::multigrid_session(), problem, options);
    SolveResult r = one.solve();
    CHECK(r.converged);
    REQUIRE(r.cycles.size() == separate.cycles.size());
    for (std::size_t c = 0; c < r.cycles.size(); ++c)
      CHECK(r.cycles[c].residual == separate.cycles[c].residual);
    REQUIRE_FALSE(r.kernels.empty());
    CHECK(r.kernels.front().find("wavefront in local memory") != std::string::npos);
    CHECK(r.bytes_per_cycle.at("smooth") < 0.6 * separate.bytes_per_cycle.at("smooth"));
  }
}

} // namespace

TEST_CASE("wavefront: the solver's residual histories equal the separate half-sweeps' to the bit") {
  std::vector<std::pair<Problem, SolverOptions>> runs;
  runs.push_back({manufactured_poisson(3, 32, Centring::Cell), {}});
  runs.back().second.cycle = CycleKind::F;
  runs.push_back({manufactured_poisson(3, 63, Centring::Vertex), {}});
  // Two steps a pass: F(3,3) smooths a pass of two steps and one of one.
  runs.push_back({manufactured_poisson(3, 32, Centring::Cell), {}});
  runs.back().second.wavefront_steps = 2;
  runs.back().second.cycle = CycleKind::F;
  runs.back().second.pre = runs.back().second.post = 3;
  check_wavefront_solves(std::move(runs));
}

// The extended tier (CMakeLists.txt): the f32 cycles of mixed precision, whose levels a GPU also
// runs as wavefronts by default (the default tier checks the f32 wavefront against the
// half-sweeps, and the solver's histories in f64).
TEST_CASE("wavefront: a mixed-precision solve's residual history equals the half-sweeps'" *
          doctest::test_suite("extended")) {
  std::vector<std::pair<Problem, SolverOptions>> runs;
  runs.push_back({manufactured_poisson(3, 32, Centring::Cell), {}});
  runs.back().second.precision = Precision::Mixed;
  check_wavefront_solves(std::move(runs));
}
