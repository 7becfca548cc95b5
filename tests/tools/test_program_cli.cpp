// The command line on the user's own programs: `--program FILE.json` (a program saved from C++
// with save_expr_file) and `--steps K`, emitted kernel files, --version, and a program that
// explores through the command line as it does through the C++ API.
#include <doctest/doctest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "explore/Report.h"
#include "tessera/tessera.h"
#include "tests/TempDir.h"
#include "tests/tools/CliRunner.h"

using namespace tessera;
using testing::cli;
using testing::has;
using testing::Result;
namespace fs = std::filesystem;

namespace {

fs::path work_dir() {
  static fs::path dir = testing::make_cli_dir("tessera-program-cli"); // kernels to a private cache
  return dir;
}

// A user's 2-D stencil over an N x M grid, as a user would write it.
Expr user_blur() {
  auto blur = user_fun("blur", [](auto n, auto w, auto c, auto e, auto s) {
    return 0.4 * c + 0.15 * (n + w + e + s);
  });
  ArithExpr N = size("N"), M = size("M");
  Val grid = input("grid", Type::array(Type::array(f32(), M), N));
  return program({grid}, grid | pad_nd(2, 1, 1, mirror) | slide_nd(2, 3, 1) | map_nd(2, [&](Val w) {
                           return blur(w.at(0).at(1), w.at(1).at(0), w.at(1).at(1), w.at(1).at(2),
                                       w.at(2).at(1));
                         }));
}

// A user's 1-D smoothing over a periodic array of N values.
Expr user_smooth() {
  auto smooth =
      user_fun("smooth", [](auto l, auto c, auto r) { return 0.25 * l + 0.5 * c + 0.25 * r; });
  Val x = input("signal", Type::array(f32(), size("N")));
  return program({x}, x | pad(1, 1, wrap) | slide(3, 1) |
                          map([&](Val w) { return smooth(w.at(0), w.at(1), w.at(2)); }));
}

std::string saved(const Expr& program, const std::string& name) {
  fs::path path = work_dir() / (name + ".json");
  save_expr_file(program, path.string());
  return path.string();
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_CASE("program cli: show, variants and run take a saved program; run checks it on PoCL") {
  std::string file = saved(user_blur(), "blur");
  Result show = cli({"show", "--program", file, "--size", "16x24"});
  INFO(show.err);
  REQUIRE(show.code == 0);
  CHECK(has(show.out, "(grid : [[f32]_24]_16)"));
  CHECK(has(show.out, "Pad(1,1,mirror)"));

  Result variants = cli({"variants", "--program", file, "--size", "32x48"});
  REQUIRE(variants.code == 0);
  // The command line lists the API's variants of the same program, in the same order.
  VariantList api = enumerate_variants(at_size(user_blur(), {32, 48}), 1);
  std::size_t at = 0;
  for (const auto& v : api.variants) {
    at = variants.out.find(v.text, at);
    REQUIRE_MESSAGE(at != std::string::npos, v.text);
  }
  CHECK(has(variants.out, "[tiled] tile-nd"));

  Result run = cli({"run", "--program", file, "--size", "20x12"});
  INFO(run.out);
  CHECK(run.code == 0);
  CHECK(has(run.out, "OK: the generated kernel matches the interpreter"));
}

TEST_CASE("program cli: --steps K iterates the program and finds temporal tiling") {
  std::string file = saved(user_blur(), "blur_steps");
  Result r = cli({"variants", "--program", file, "--size", "32x32", "--steps", "2"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "[temporal] temporal-tiling"));
  Result run = cli({"run", "j1d3pt", "--size", "40", "--steps", "3"});
  CHECK(run.code == 0);
  CHECK(has(run.out, "OK"));
}

TEST_CASE("program cli: run checks with the explorer's tolerance; variants say what is absent") {
  Result run = cli({"run", "j2d5pt", "--size", "24x20"});
  INFO(run.err);
  CHECK(run.code == 0);
  CHECK(has(run.out, "(tolerance 0.0001)")); // compile/Agreement.h, not a stricter one of its own
  Result odd = cli({"variants", "j2d5pt", "--size", "64x61"});
  REQUIRE(odd.code == 0);
  CHECK(has(odd.out, "[local-memory]")); // tiles with a remainder
  Result thin = cli({"variants", "j2d5pt", "--size", "64x3"});
  CHECK(has(thin.out, "tile-nd: extent 3 is not larger than any tile size {4, 8, 16, 32, 64}"));
  CHECK(has(odd.out, "[vectorized]")); // vector lanes with a remainder
  CHECK(has(thin.out, "absent   vectorized: vectorize-4: the innermost length 3 is less than 4"));
}

TEST_CASE("program cli: emit writes a self-contained kernel and its launch description") {
  std::string file = saved(user_blur(), "blur_emit");
  fs::path cl = work_dir() / "blur.cl", launch = work_dir() / "blur.launch.json";
  Result r = cli({"emit", "--program", file, "--size", "64x64", "--variant", "3", "-o", cl.string(),
                  "--json", launch.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::string text = read_text(cl);
  CHECK(has(text, "// Program (Lift notation): (grid : [[f32]_64]_64) =>"));
  CHECK(has(text, "// Rewrite history:"));
  CHECK(has(text, "// Launch: 2-D NDRange, global size"));
  CHECK(has(text, "//   grid: the program's input 'grid' [[f32]_64]_64: 4096 f32 values"));
  CHECK(has(text, "__kernel void blur_emit(const __global float* restrict grid"));
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    CHECK_MESSAGE(line.size() <= 100, line);

  auto j = nlohmann::json::parse(read_text(launch));
  CHECK(j["format"] == "tessera-launch");
  CHECK(j["kernel"] == "blur_emit");
  CHECK(j["dims"] == 2);
  CHECK(j["arguments"][0]["name"] == "grid");
  CHECK(j["arguments"][0]["role"] == "input");
  CHECK(j["arguments"][0]["count"] == 4096);
  CHECK(j["arguments"][1]["role"] == "output");
  CHECK(j["version"] == 2);
  CHECK(j["history"].is_array());
  CHECK(j["mapping"]["kind"].is_string()); // how the variant was made executable

  // Symbolic sizes stay names in the description, and size arguments are listed.
  Result symbolic =
      cli({"emit", "--program", file, "--size", "NxM", "--json", (work_dir() / "sym.json").string(),
           "-o", (work_dir() / "sym.cl").string()});
  REQUIRE(symbolic.code == 0);
  auto s = nlohmann::json::parse(read_text(work_dir() / "sym.json"));
  CHECK(s["global"][0] == "M");
  CHECK(s["arguments"].back()["role"] == "size");
}

TEST_CASE("program cli: emit of a program of kernels writes every kernel and every launch") {
  // --steps 3 lowered plainly: each step its own launch (a program of kernels).
  fs::path cl = work_dir() / "steps.cl", launch = work_dir() / "steps.launch.json";
  Result r = cli({"emit", "j1d3pt", "--size", "40", "--steps", "3", "-o", cl.string(), "--json",
                  launch.string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  std::string text = read_text(cl);
  CHECK(has(text, "in 3 launches, generated by tessera"));
  CHECK(has(text, "// Launches, in order:"));
  CHECK(has(text, "__kernel void"));
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    CHECK_MESSAGE(line.size() <= 100, line);
  auto j = nlohmann::json::parse(read_text(launch));
  CHECK(j["format"] == "tessera-launch");
  REQUIRE(j["launches"].size() == 3);
  CHECK(j["launches"][2]["output"] == "output");
  CHECK(j["kernels"].size() >= 1);
}

TEST_CASE("program cli: wrong programs and options are clear errors") {
  std::string file = saved(user_blur(), "blur_errors");
  auto error_of = [](std::vector<std::string> args) {
    Result r = cli(std::move(args));
    CHECK(r.code == 2);
    return r.err;
  };
  CHECK(
      has(error_of({"show", "--program", (work_dir() / "missing.json").string()}), "missing.json"));
  CHECK(has(error_of({"show", "j2d5pt", "--program", file}), "not both"));
  CHECK(has(error_of({"show"}), "give a stencil name"));
  CHECK(has(error_of({"show", "--program", file, "--size", "64"}), "is 2-D: give 2 extents"));
  CHECK(has(error_of({"variants", "--program", file, "--steps", "0"}), "--steps"));
  fs::path fixed = work_dir() / "fixed.json";
  save_expr_file(at_size(user_blur(), {8, 8}), fixed.string());
  CHECK(has(error_of({"show", "--program", fixed.string(), "--size", "16x16"}), "constant 8"));
  CHECK(cli({"show", "--program", fixed.string()}).code == 0); // its own size by default
  std::ofstream(work_dir() / "bad.json") << "{\"format\": \"tessera-expr\"";
  CHECK(has(error_of({"show", "--program", (work_dir() / "bad.json").string()}), "bad.json"));
}

TEST_CASE("program cli: a program of constant extents beyond the check grid is its own") {
  // 8192 points: more than the 4096 of the 1-D grid on which the plain lowering is checked,
  // which a program of constant extents does not have.
  fs::path fixed = work_dir() / "smooth8192.json";
  save_expr_file(at_size(user_smooth(), {8192}), fixed.string());
  Result r = cli({"explore", "--program", fixed.string(), "--size", "8192", "--depth", "0",
                  "--budget", "10", "-q"});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(has(r.out, "best / baseline"));
  Result run = cli({"run", "--program", fixed.string(), "--variant", "1"});
  INFO(run.err);
  CHECK(run.code == 0);
  CHECK(has(run.out, "OK: the generated kernel matches the interpreter"));
}

TEST_CASE("program cli: a program of constant extents too large for the interpreter is refused") {
  // Its only check is the interpreter on the whole grid: 2^30 points would need terabytes (the
  // process was killed for memory before: a 256^3 program of 6 inputs needs about 360 GB).
  fs::path huge = work_dir() / "blur32768.json";
  save_expr_file(at_size(user_blur(), {32768, 32768}), huge.string());
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"explore", "--program", huge.string(), "--size", "32768x32768",
                                 "--budget", "10"},
        std::vector<std::string>{"run", "--program", huge.string()}}) {
    Result r = cli(args);
    INFO(args[0], ": ", r.err);
    CHECK(r.code == 2);
    CHECK(has(r.err, "sizes are constants (32768x32768)"));
    CHECK(has(r.err, "of host memory"));
    CHECK(has(r.err, "size variables"));
  }
}

TEST_CASE("program cli: --version and the default sizes in --help") {
  Result v = cli({"--version"});
  CHECK(v.code == 0);
  CHECK(has(v.out, "tessera 0."));
  Result help = cli({"variants", "--help"});
  CHECK(has(help.out, "default 64 (1-D), 32x32 (2-D), 16x16x16 (3-D)"));
  CHECK(has(help.out, "--program"));
  CHECK(has(help.out, "--steps"));
}

TEST_CASE("program cli: a program saved from C++ explores through the CLI as through the API") {
  runtime::Session device = open_device();
  explore::ExploreOptions options;
  options.budget_s = 10;

  // A small space (a prime length at depth 0 leaves no tiling and no work-group size).
  std::string smooth = saved(user_smooth(), "smooth");
  explore::Problem problem = make_problem(device, "smooth", user_smooth(), {4099}, 0);
  explore::Report api = explore_program(device, problem, options);
  fs::path cli_json = work_dir() / "smooth-cli.json";
  Result r = cli({"explore", "--program", smooth, "--size", "4099", "--depth", "0", "--budget",
                  "10", "--json", cli_json.string(), "-q"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  explore::Report via_cli = explore::read_report(cli_json.string());
  CHECK(via_cli.space_points == api.space_points);
  REQUIRE(api.best);
  REQUIRE(via_cli.best);
  // The space holds a few root lowerings (coarsening layouts, constant placement) whose ranking
  // is timing noise; the CLI's best must be one of the variants the API measured, by text and
  // history.
  bool found = false;
  for (const auto& p : api.points)
    found = found || (p.program == via_cli.find(*via_cli.best)->program &&
                      p.history == via_cli.find(*via_cli.best)->history);
  CHECK(found);

  // A space of many points: the command line resumes the API's report, which it accepts only
  // for the same problem on the same device, and reuses every point: each measured point
  // (variant program, work-group size) of the API is a point of the command line's space.
  // The API's run is stopped after a few points: a complete report is not resumed (there would
  // be nothing left to measure, docs/cli.md).
  std::string blur = saved(user_blur(), "blur");
  explore::Problem big = make_problem(device, "blur", user_blur(), {32, 48}, 1);
  std::atomic<bool> stop{false};
  explore::ExploreOptions partial = options;
  partial.budget_s = 600; // only the stop ends it, however loaded the machine is
  partial.stop = &stop;
  partial.on_checkpoint = [&](const explore::Report& r) {
    if (r.points.size() >= 5)
      stop = true;
  };
  explore::Report measured = explore_program(device, big, partial);
  REQUIRE(measured.interrupted);
  REQUIRE(measured.points.size() < measured.space_points);
  fs::path resumed = work_dir() / "blur-resumed.json";
  explore::write_report(measured, resumed.string());
  Result again = cli({"explore", "--program", blur, "--size", "32x48", "--budget", "10", "--json",
                      resumed.string(), "--resume", "-q"});
  INFO(again.err);
  REQUIRE(again.code == 0);
  explore::Report continued = explore::read_report(resumed.string());
  CHECK(continued.runs == 2);
  CHECK(continued.space_variants == measured.space_variants);
  CHECK(continued.points.size() >= measured.points.size()); // then it measures more
  for (const auto& p : measured.points) {
    bool found = false;
    for (const auto& q : continued.points)
      found |= q.key == p.key && q.program == p.program;
    CHECK_MESSAGE(found, p.key);
  }
}

namespace {

// A box (every point) or star (the axes) stencil of radius r in `dims` dimensions, written
// inline with weighted_sum; weights differ from point to point.
Expr inline_stencil(int dims, int r, bool box) {
  int side = 2 * r + 1, points = 1;
  for (int d = 0; d < dims; ++d)
    points *= side;
  std::vector<double> w(static_cast<std::size_t>(points));
  for (int k = 0; k < points; ++k) {
    int on_axes = 0;
    for (int d = 0, rest = k; d < dims; ++d, rest /= side)
      on_axes += rest % side != r;
    if (box || on_axes <= 1)
      w[static_cast<std::size_t>(k)] = 1 + k % 5;
  }
  Val x = input("x", array_of(f32(), std::vector<ArithExpr>(dims, size("N"))));
  return program({x}, x | pad_nd(dims, r, r, clamp) | slide_nd(dims, side, 1) |
                          map_nd(dims, [&](Val n) { return weighted_sum(n, w) / points; }));
}

} // namespace

TEST_CASE("program cli: new-notation programs keep their file's name, as written") {
  // Stars and boxes of radius 1-3 in 2-D and 3-D (up to 343 points), under names a kernel
  // could not take: the command line shows the name as written.
  int count = 0;
  for (int dims : {2, 3})
    for (int r : {1, 2, 3})
      for (bool box : {false, true}) {
        std::string name = cat(dims, "d-", box ? "box" : "star", "-r", r);
        std::string file = saved(inline_stencil(dims, r, box), name);
        Result show = cli({"show", "--program", file, "--size", dims == 2 ? "16x16" : "8x8x8"});
        INFO(show.err);
        CHECK(show.code == 0);
        CHECK(has(show.out, name + ": the program in"));
        CHECK(structurally_equal(load_expr_file(file), inline_stencil(dims, r, box)));
        ++count;
      }
  CHECK(count == 12);
  // Run and emit: the report says the file's name; the kernel takes an identifier made of it.
  std::string file = saved(inline_stencil(2, 1, true), "j2d9pt-gol");
  Result run = cli({"run", "--program", file, "--size", "20x20"});
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(has(run.out, "stencil  j2d9pt-gol ("));
  CHECK(has(run.out, "OK: the generated kernel matches the interpreter"));
  fs::path cl = work_dir() / "gol.cl";
  Result emit = cli({"emit", "--program", file, "--size", "16x16", "-o", cl.string()});
  CHECK(emit.code == 0);
  CHECK(has(read_text(cl), "__kernel void j2d9pt_gol("));
  std::string digits = saved(inline_stencil(3, 1, false), "3d7pt");
  CHECK(has(cli({"show", "--program", digits, "--size", "8x8x8"}).out, "3d7pt: the program in"));
  Result emit3 = cli({"emit", "--program", digits, "--size", "8x8x8", "-o", cl.string()});
  CHECK(emit3.code == 0);
  CHECK(has(read_text(cl), "__kernel void k_3d7pt("));
}
