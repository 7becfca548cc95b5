// Diamond, parallelogram and rolling tiling (rewrite/rules/TimeTiling.cpp, codegen/TimeTiled.h):
// every variant the rules give runs on PoCL and matches the interpreter's unfused steps, in 1-D
// and 2-D (rolling: 2-D and 3-D), radius 1 and 2, with every boundary kind, k = 2..8 and extents
// that the tiles do not divide; diamonds and parallelograms compute every point of every step
// exactly once, rolling tiles recompute what neighbouring strips share.
#include <doctest/doctest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "codegen/TimeTiled.h"
#include "compile/Execute.h"
#include "compile/KernelRunner.h"
#include "compile/Workload.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "rewrite/Lower.h"
#include "rewrite/rules/Rules.h"
#include "rewrite/rules/StencilSteps.h"
#include "tests/codegen/CodegenCheck.h"

using namespace tessera;

namespace {

// k steps of a d-dimensional stencil of radius r with asymmetric weights (a tile computed in
// the wrong orientation or a ghost taken from the wrong side changes the result) and a corner
// tap in 2-D (corner ghosts).
Expr stencil_steps(int d, int r, Boundary b, std::vector<int64_t> extents, int k) {
  std::vector<ArithExpr> ext(extents.begin(), extents.end());
  Val x = input("x", array_of(f32(), ext));
  auto g1 = user_fun("g1", [](auto a, auto c, auto e) { return 0.2 * a + 0.5 * c + 0.3 * e; });
  auto g2 = user_fun("g2", [](auto n, auto w, auto c, auto e, auto s, auto corner) {
    return 0.1 * n + 0.15 * w + 0.4 * c + 0.2 * e + 0.1 * s + 0.05 * corner;
  });
  auto g3 = user_fun("g3", [](auto below, auto c, auto above, auto corner) {
    return 0.3 * below + 0.4 * c + 0.2 * above + 0.1 * corner;
  });
  Fun point = d == 1   ? Fun([=](Val w) { return g1(w.at(0), w.at(r), w.at(2 * r)); })
              : d == 2 ? Fun([=](Val v) {
                  return g2(v.at(0).at(r), v.at(r).at(0), v.at(r).at(r), v.at(r).at(2 * r),
                            v.at(2 * r).at(r), v.at(0).at(0));
                })
                       : Fun([=](Val v) {
                           return g3(v.at(0).at(r).at(r), v.at(r).at(r).at(r),
                                     v.at(2 * r).at(r).at(2 * r), v.at(0).at(0).at(0));
                         });
  Val v = x;
  for (int s = 0; s < k; ++s)
    v = v | pad_nd(d, r, r, b) | slide_nd(d, 2 * r + 1, 1) | map_nd(d, point);
  return program({x}, v);
}

const rewrite::Rule& rule(const std::string& name) {
  static const auto rules = rewrite::time_tiling_rules();
  for (const auto& r : rules)
    if (r.name == name)
      return r;
  FAIL("no rule " << name);
  return rules.front();
}

// The lowered variants of one rule at the program's body.
std::vector<Expr> tiled_variants(const std::string& rule_name, const Expr& program,
                                 std::vector<int64_t> tile_sizes) {
  TypeChecker types;
  types.apply(program, input_types(program));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  ctx.tile_sizes = std::move(tile_sizes);
  std::vector<Expr> lowered;
  for (const auto& alt : rule(rule_name).apply(program->body(), ctx).alternatives)
    lowered.push_back(rewrite::lower_default(make_lambda(program->params(), alt.replacement)));
  return lowered;
}

int64_t points(const std::vector<int64_t>& extents) {
  int64_t n = 1;
  for (auto e : extents)
    n *= e;
  return n;
}

// Runs one of the rule's variants (`pick`, modulo their number: the tests spread their picks over
// band heights and work-group sizes) on PoCL against the interpreter.
void check_variant(const std::string& rule_name, int d, int r, Boundary b,
                   std::vector<int64_t> extents, int k, std::vector<int64_t> tile_sizes,
                   std::size_t pick) {
  Expr p = stencil_steps(d, r, b, extents, k);
  auto inputs = random_inputs(p, 7 + static_cast<uint32_t>(k));
  auto variants = tiled_variants(rule_name, p, tile_sizes);
  REQUIRE(!variants.empty());
  const Expr& v = variants[pick % variants.size()];
  CAPTURE(print(v));
  testing::check_program(v, inputs);
  CHECK(codegen::time_tiled_evaluations(v) == k * points(extents));
}

const std::vector<Boundary> kBoundaries{clamp, mirror, wrap, constant(0.5f), antisymmetric};
const char* kSchemes[] = {"diamond-tiling", "parallelogram-tiling"};

} // namespace

// Every boundary meets both schemes (one in 1-D, the other in 2-D) and both radii; the numbers
// of steps cover 2..8; no extent is a multiple of the tile width (1-D widths are 16 x the tile
// sizes: 32).
TEST_CASE("diamond and parallelogram tiling against the interpreter: 1-D and 2-D, radius 1 and 2, "
          "every boundary, k = 2..8") {
  const int k_1d[] = {8, 3, 7, 5, 6}, k_2d[] = {3, 2, 2, 4, 3};
  for (std::size_t i = 0; i < kBoundaries.size(); ++i) {
    CAPTURE(kBoundaries[i].to_string());
    int r = 1 + static_cast<int>(i % 2);
    check_variant(kSchemes[i % 2], 1, r, kBoundaries[i], {r == 1 ? 70 : 101}, k_1d[i], {2}, i);
    r = 3 - r;
    check_variant(kSchemes[1 - i % 2], 2, r, kBoundaries[i], {29, 31}, k_2d[i], {r == 1 ? 8 : 12},
                  i + 1);
  }
}

TEST_CASE("diamond and parallelogram tiling in 3-D") {
  check_variant(kSchemes[0], 3, 1, antisymmetric, {9, 10, 11}, 2, {4}, 0);
  check_variant(kSchemes[1], 3, 1, clamp, {13, 14, 15}, 3, {6}, 1);
}

TEST_CASE("a time-tiled program is saved and loaded as it is, and bad parameters are refused") {
  Expr p = stencil_steps(2, 1, mirror, {20, 21}, 4);
  for (const char* scheme : kSchemes)
    for (const Expr& v : tiled_variants(scheme, p, {8})) {
      Expr loaded = expr_from_json(expr_to_json(v));
      CHECK(structurally_equal(loaded, v));
      CHECK(print(loaded) == print(v));
    }
  TimeTiling t;
  t.dims = 2;
  t.steps = 4;
  t.band = 4;
  t.tile = {6, 6, 6};
  CHECK_THROWS_WITH_AS(make_time_tile(t, clamp, Expr()), doctest::Contains("a function"), Error);
  t.band = 5;
  Expr tiled = tiled_variants(kSchemes[0], p, {8}).front()->body()->callee();
  CHECK_THROWS_WITH_AS(make_time_tile(t, clamp, tiled->children[0]),
                       doctest::Contains("band <= steps"), Error);
  // Tiles narrower than 2 x band x radius leave gaps: refused when the program is generated.
  t.band = 4;
  Expr narrow = make_lambda(
      p->params(), make_call(make_time_tile(t, clamp, tiled->children[0]), {p->params()[0]}));
  CHECK_THROWS_WITH_AS(codegen::generate_program(narrow), doctest::Contains("at least 2 x band"),
                       Error);
}

// Between the launches of a band only the edges move through global memory: per dimension,
// level below the band's top and cut, 4r points by the other extents (not h - 1 grids). A
// diamond band is d + 1 launches (the phases with as many inverted dimensions share one), a
// parallelogram band one per wavefront.
TEST_CASE("the edges between the launches of a band go through a compact buffer") {
  const std::vector<int64_t> extents{100, 130};
  for (const char* scheme : kSchemes)
    for (const Expr& v : tiled_variants(scheme, stencil_steps(2, 1, clamp, extents, 6), {16})) {
      TimeTiling t = time_tiling_of(*codegen::time_tile_of(v));
      CAPTURE(print(v));
      // Tiles per dimension: a remainder of at least 2 x band x radius is a tile of its own.
      auto tiles = [&](std::size_t l) {
        return extents[l] / t.tile[l] + (extents[l] % t.tile[l] >= 2 * t.band ? 1 : 0);
      };
      int64_t expected = 0;
      for (std::size_t l = 0; l < 2; ++l)
        expected += (t.band - 1) * tiles(l) * 4 * extents[1 - l];
      auto program = codegen::generate_program(v);
      int64_t bands = (t.steps + t.band - 1) / t.band;
      CHECK(static_cast<int64_t>(program.launches.size()) ==
            bands * (t.scheme == TimeTileScheme::Diamond ? 3 : tiles(0) + tiles(1) - 1));
      REQUIRE(program.buffers.size() == 3);
      CHECK(program.buffers[2].element_count.as_constant() == expected);
      CHECK(expected < (t.band - 1) * points(extents) / 2);
    }
}

// The kernel is built as kernel IR and printed as every other kernel (codegen/KernelIR.h): each
// line of its body is indented two spaces per open brace (the text writer it replaced left the
// point's statements at a fixed depth and the first level's loads at their conditional's).
TEST_CASE("a time-tiled kernel's lines are indented by their nesting") {
  for (const char* scheme : kSchemes)
    for (const Expr& v :
         tiled_variants(scheme, stencil_steps(2, 1, antisymmetric, {29, 31}, 4), {8})) {
      CAPTURE(print(v));
      for (const auto& kernel : codegen::generate_program(v).kernels) {
        std::istringstream lines(kernel.source.substr(kernel.source.find("__kernel")));
        int depth = 0;
        for (std::string line; std::getline(lines, line);) {
          std::size_t text = line.find_first_not_of(' ');
          if (text == std::string::npos)
            continue;
          if (line[text] == '}')
            --depth;
          CAPTURE(line);
          CHECK(static_cast<int>(text) == 2 * depth);
          for (std::size_t c = text; c < line.size(); ++c)
            depth += line[c] == '{' ? 1 : line[c] == '}' ? -1 : 0;
          if (line[text] == '}')
            ++depth;
        }
      }
    }
}

namespace {

// The program of k time steps of a 2-D stencil in one band (radius 1, clamp) with `work_items` per
// tile of width `tile`, run through the kernel runner with an output buffer `guard` floats
// longer than the grid, filled with a sentinel: the grid must match the interpreter and the
// guard stay untouched (a kernel writing past its output corrupts the host heap on PoCL).
void check_in_bounds(TimeTileScheme scheme, std::vector<int64_t> extents, int64_t tile,
                     int64_t work_items, int k = 2) {
  INFO(std::string(scheme_name(scheme))
       << " " << extents[0] << "x" << extents[1] << " tile " << tile << ", " << work_items
       << " work-items, " << k << " steps");
  Expr steps = stencil_steps(2, 1, clamp, extents, k);
  auto any = tiled_variants(kSchemes[0], steps, {2 * k}); // for the point function only
  REQUIRE(!any.empty());
  Expr f = any.front()->body()->callee()->children[0];
  TimeTiling t;
  t.scheme = scheme;
  t.dims = 2;
  t.steps = k;
  t.band = k;
  t.work_group = work_items;
  t.tile = {tile, tile, tile};
  Expr tiled =
      make_lambda(steps->params(), make_call(make_time_tile(t, clamp, f), {steps->params()[0]}));
  auto inputs = random_inputs(steps, 11);
  std::vector<float> in;
  for (double v : inputs[0].flatten())
    in.push_back(static_cast<float>(v));
  const std::size_t n = in.size(), guard = 4096;
  const float sentinel = -12345.0f;
  std::vector<float> out(n + guard, sentinel);
  runtime::Session& session = testing::test_session();
  runtime::RawBuffer in_buffer(session, n * sizeof(float), in.data());
  runtime::RawBuffer out_buffer(session, out.size() * sizeof(float), out.data());
  explore::KernelRunner runner(session, codegen::generate_program(tiled));
  runner.bind_input(0, runtime::KernelArg(in_buffer));
  runner.bind_output(runtime::KernelArg(out_buffer));
  runner.run();
  out_buffer.read(out.data(), out.size() * sizeof(float));
  std::size_t past_the_end = 0;
  for (std::size_t i = n; i < out.size(); ++i)
    past_the_end += out[i] != sentinel;
  CHECK(past_the_end == 0);
  Data expected = evaluate(steps, inputs);
  Data grid = Data::from_flat(
      ScalarKind::F32, extents,
      std::vector<double>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(n)));
  CHECK(explore::max_relative_error(grid, expected) <= 1e-5);
  CHECK(explore::has_nonzero(expected.flatten()));
}

} // namespace

// Work-groups wider than a tile's rows: PoCL 3.1 ran the compute loop once for the work-items
// past a tile's last row unless a barrier ends each level, writing past the output (the
// process aborted with "malloc(): unsorted double linked list corrupted").
TEST_CASE("time-tiled kernels with more work-items than a tile's points write only the grid") {
  const auto D = TimeTileScheme::Diamond, P = TimeTileScheme::Parallelogram;
  check_in_bounds(P, {16, 16}, 4, 128);
  check_in_bounds(P, {13, 11}, 4, 64);
  check_in_bounds(D, {13, 11}, 8, 128);
  check_in_bounds(D, {20, 9}, 8, 64);
  check_in_bounds(P, {9, 20}, 4, 32);
  check_in_bounds(P, {13, 11}, 8, 128, 3);
  check_in_bounds(D, {13, 11}, 8, 128, 3);
}

namespace {

// k steps of stencil_steps as rolling tiles of tile[0] outer rows by tile[1] (x tile[2]) inner
// points, in bands of `band` steps.
Expr rolling(int d, int r, Boundary b, std::vector<int64_t> extents, int k, int64_t band,
             std::array<int64_t, 3> tile) {
  Expr steps = stencil_steps(d, r, b, extents, k);
  auto chain = rewrite::match_stencil_steps(steps->body());
  REQUIRE(chain);
  REQUIRE(chain->count == k);
  TimeTiling t;
  t.scheme = TimeTileScheme::Rolling;
  t.dims = d;
  t.radius = r;
  t.steps = k;
  t.band = band;
  t.tile = tile;
  return make_lambda(steps->params(),
                     make_call(make_time_tile(t, b, chain->f), {steps->params()[0]}));
}

void check_rolling(int d, int r, Boundary b, std::vector<int64_t> extents, int k, int64_t band,
                   std::array<int64_t, 3> tile) {
  Expr v = rolling(d, r, b, extents, k, band, tile);
  CAPTURE(print(v));
  testing::check_program(v, random_inputs(v, 5 + static_cast<uint32_t>(k)));
  // Strips recompute the rows their levels share (with a band of two steps or more); one tile of
  // a grid that does not wrap computes every point once.
  bool one_tile = band == 1 || b.kind != Boundary::Wrap;
  for (int l = 0; l < d; ++l)
    one_tile =
        one_tile && tile[static_cast<std::size_t>(l)] >= extents[static_cast<std::size_t>(l)];
  int64_t evaluations = codegen::time_tiled_evaluations(v), kN = k * points(extents);
  if (one_tile || band == 1)
    CHECK(evaluations == kN);
  else
    CHECK(evaluations > kN);
}

rewrite::RuleResult rolling_on(const Expr& program, DeviceKind kind, int64_t local_bytes) {
  TypeChecker types;
  types.apply(program, input_types(program));
  rewrite::RuleContext ctx;
  ctx.types = &types;
  ctx.target.kind = kind;
  ctx.target.local_memory_bytes = local_bytes;
  return rule("rolling-tiling").apply(program->body(), ctx);
}

} // namespace

// Several strips and inner tiles (none dividing its extent), bands of fewer steps than k (the
// next band reads the last one's grid), strips narrower than a band's reach (h r rows), every
// boundary at both radii.
TEST_CASE("rolling tiling against the interpreter: 2-D and 3-D, radius 1 and 2, every boundary") {
  const int k_2d[] = {3, 2, 5, 4, 3};
  for (std::size_t i = 0; i < kBoundaries.size(); ++i) {
    CAPTURE(kBoundaries[i].to_string());
    const int r = 1 + static_cast<int>(i % 2), k = k_2d[i];
    const int64_t band = i % 2 ? k : 2, rows = 3 + static_cast<int64_t>(i);
    check_rolling(2, r, kBoundaries[i], {29, 31}, k, band, {rows, 8 + 3 * rows, 1});
    check_rolling(2, r, kBoundaries[i], {23, 40}, 2, 2, {40, 40, 1}); // one tile
    check_rolling(2, r, kBoundaries[i], {13, 11}, 3, 3, {4, 4, 1});
    check_rolling(3, r, kBoundaries[i], {11, 12, 13}, 2, i % 2 ? 2 : 1, {4, 5, 6 + rows});
  }
}

// A window function that is not one user function of points: the window joined and reduced
// (the code of f is the emitter's, through the view of the rings).
TEST_CASE("rolling tiles of a stencil whose function reduces its window") {
  for (int d : {2, 3}) {
    std::vector<ArithExpr> ext =
        d == 2 ? std::vector<ArithExpr>{37, 26} : std::vector<ArithExpr>{14, 9, 11};
    Val x = input("x", array_of(f32(), ext));
    auto scale = user_fun("scale", [](auto a) { return a * 0.1; });
    Fun mean([d, scale](Val w) {
      return (w | join_nd(d) | reduce(add_fun(), 0.0f) | map(scale)).at(0);
    });
    Val v = x;
    for (int s = 0; s < 3; ++s)
      v = v | pad_nd(d, 1, 1, mirror) | slide_nd(d, 3, 1) | map_nd(d, mean);
    Expr steps = program({x}, v);
    auto chain = rewrite::match_stencil_steps(steps->body());
    REQUIRE(chain);
    TimeTiling t;
    t.scheme = TimeTileScheme::Rolling;
    t.dims = d;
    t.steps = 3;
    t.band = 3;
    t.tile = {5, d == 2 ? 9 : 4, 6};
    Expr tiled = make_lambda(steps->params(),
                             make_call(make_time_tile(t, mirror, chain->f), {steps->params()[0]}));
    auto inputs = random_inputs(steps, 3);
    testing::check_program(tiled, inputs, {}, 1e-5);
    // and the unfused steps' own result
    auto run = explore::execute(testing::test_session(), codegen::generate_program(tiled), inputs);
    CHECK(explore::max_relative_error(run.output, evaluate(steps, inputs)) <= 1e-5);
  }
}

TEST_CASE("rolling tiles write only the grid") {
  check_in_bounds(TimeTileScheme::Rolling, {13, 11}, 4, 1, 3);
  check_in_bounds(TimeTileScheme::Rolling, {9, 20}, 2, 1, 4);
  check_in_bounds(TimeTileScheme::Rolling, {16, 16}, 16, 1, 2);
}

// One work-item a tile is a CPU's form: a GPU is not offered it; the rings of a band fit the
// device's local memory (the innermost dimension whole where they fit, else in tiles).
TEST_CASE("rolling tiles are offered on a CPU, within its local memory") {
  Expr p = stencil_steps(2, 1, clamp, {512, 3000}, 4);
  auto cpu = rolling_on(p, DeviceKind::CPU, 1 << 20);
  REQUIRE(!cpu.alternatives.empty());
  bool whole_rows = false;
  for (const auto& alt : cpu.alternatives) {
    Expr v = rewrite::lower_default(make_lambda(p->params(), alt.replacement));
    TimeTiling t = time_tiling_of(*codegen::time_tile_of(v));
    whole_rows |= t.tile[1] == 3000;
    for (const auto& kernel : codegen::generate_program(v).kernels)
      CHECK(kernel.local_memory_bytes <= 1 << 20);
    CHECK(2 * t.tile[0] <= 512);
  }
  CHECK(whole_rows);
  auto small = rolling_on(p, DeviceKind::CPU, 128 << 10); // rows of 1024 then
  REQUIRE(!small.alternatives.empty());
  for (const auto& alt : small.alternatives)
    CHECK(alt.params.at("tile") == 1024);
  // In 3-D the middle dimension's tile is a parameter of its own: every variant has its name.
  auto cube = rolling_on(stencil_steps(3, 1, clamp, {128, 64, 64}, 4), DeviceKind::CPU, 1 << 20);
  std::set<rewrite::Params> named;
  for (const auto& alt : cube.alternatives)
    named.insert(alt.params);
  CHECK(named.size() == cube.alternatives.size());
  CHECK(named.size() >= 4);
  auto refused = [](const rewrite::RuleResult& result, const std::string& because) {
    CAPTURE(result.why_not);
    CHECK(result.alternatives.empty());
    CHECK(result.why_not.find(because) != std::string::npos);
  };
  refused(rolling_on(p, DeviceKind::GPU, 1 << 20), "CPU");
  refused(rolling_on(p, DeviceKind::CPU, 1024), "local memory");
  refused(rolling_on(stencil_steps(1, 1, clamp, {4096}, 4), DeviceKind::CPU, 1 << 20),
          "one dimension");
}

TEST_CASE("rolling tiles refuse what they cannot compute") {
  Expr p = rolling(2, 2, mirror, {20, 21}, 3, 3, {6, 8, 1});
  Expr loaded = expr_from_json(expr_to_json(p)); // saved and loaded as it is
  CHECK(structurally_equal(loaded, p));
  CHECK(time_tiling_of(*codegen::time_tile_of(loaded)).scheme == TimeTileScheme::Rolling);
  Expr f = codegen::time_tile_of(p)->children[0];
  TimeTiling t = time_tiling_of(*codegen::time_tile_of(p));
  t.work_group = 128;
  CHECK_THROWS_WITH_AS(make_time_tile(t, mirror, f), doctest::Contains("one work-item"), Error);
  t.work_group = 1;
  t.dims = 1;
  CHECK_THROWS_WITH_AS(make_time_tile(t, mirror, f), doctest::Contains("2 or 3 dimensions"), Error);
  CHECK_THROWS_WITH_AS(codegen::generate_program(rolling(2, 2, mirror, {20, 21}, 3, 3, {1, 8, 1})),
                       doctest::Contains("below the radius"), Error);
  CHECK_THROWS_WITH_AS(codegen::generate_program(rolling(2, 2, clamp, {4, 21}, 2, 2, {2, 8, 1})),
                       doctest::Contains("twice the radius"), Error);
}
