// Programs in the new notation (inline arithmetic on values, weighted_sum with constant or input
// weights, fixed_halo) built in C++, saved, and loaded by the `tessera` command line: the file
// keeps every name (programs, user functions, parameters), and `tessera run` reports the file's
// name and the interpreter's values of the C++ program on the same data.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <regex>

#include "core/RandomData.h"
#include "tessera/tessera.h"
#include "tests/TempDir.h"
#include "tests/tools/CliRunner.h"

using namespace tessera;
using testing::cli;
using testing::has;
using testing::Result;
namespace fs = std::filesystem;

namespace {

fs::path notation_dir() {
  static fs::path dir = testing::make_cli_dir("tessera-new-notation"); // kernels to a private cache
  return dir;
}

struct Case {
  std::string name;   // the file's name
  Expr program;       // over size variables N (every extent) or constant extents
  std::string size;   // --size, empty for constant extents
  std::string callee; // a user function the printed program names
};

// (2r+1)^d box or star of radius r, weighted_sum with constants that differ from point to point.
Expr weighted_stencil(int dims, int r, bool box) {
  int side = 2 * r + 1, points = 1;
  for (int d = 0; d < dims; ++d)
    points *= side;
  std::vector<double> w(static_cast<std::size_t>(points));
  for (int k = 0; k < points; ++k) {
    int off_centre = 0;
    for (int d = 0, rest = k; d < dims; ++d, rest /= side)
      off_centre += rest % side != r;
    if (box || off_centre <= 1)
      w[static_cast<std::size_t>(k)] = 1 + k % 5;
  }
  Val x = input("x", array_of(f32(), std::vector<ArithExpr>(dims, size("N"))));
  return program({x},
                 x | pad_nd(dims, r, r, clamp) | slide_nd(dims, side, 1) | map_nd(dims, [&](Val n) {
                   return (weighted_sum(n, w) / points).named(box ? "box" : "star");
                 }));
}

Expr grid_stencil(int dims, Boundary b, const std::function<Val(Val)>& point) {
  Val x = input("x", array_of(f32(), std::vector<ArithExpr>(dims, size("N"))));
  return program({x}, x | pad_nd(dims, 1, 1, b) | slide_nd(dims, 3, 1) | map_nd(dims, Fun(point)));
}

Expr with_input_weights(int dims) {
  Val x = input("x", array_of(f32(), std::vector<ArithExpr>(dims, size("N"))));
  Val w = input("coefficients", array_of(f32(), std::vector<ArithExpr>(dims, 3)));
  return program({x, w}, x | pad_nd(dims, 1, 1, clamp) | slide_nd(dims, 3, 1) |
                             map_nd(dims, [w](Val n) { return weighted_sum(n, w).named("wsum"); }));
}

// Two steps of a 3-D heat equation under a fixed halo.
Expr fixed_heat(const std::vector<ArithExpr>& extents) {
  Val x = input("u", array_of(f32(), extents));
  Fun step = fixed_halo(3, 1, [](Val w) {
    Val c = w.at(1).at(1).at(1);
    Val lap = w.at(0).at(1).at(1) + w.at(2).at(1).at(1) + w.at(1).at(0).at(1) +
              w.at(1).at(2).at(1) + w.at(1).at(1).at(0) + w.at(1).at(1).at(2) - 6 * c;
    return (c + 0.1f * lap).named("heat");
  });
  return program({x}, x | step | step);
}

std::vector<Case> cases() {
  std::vector<Case> all;
  for (int dims : {2, 3})
    for (int r : {1, 2, 3})
      for (bool box : {false, true})
        all.push_back({cat(dims, "d-", box ? "box" : "star", "-r", r),
                       weighted_stencil(dims, r, box), dims == 2 ? "16x16" : "8x8x8",
                       box ? "box(" : "star("});
  all.push_back(
      {"j1d3pt-inline",
       grid_stencil(1, clamp,
                    [](Val w) { return ((w.at(0) + w.at(1) + w.at(2)) / 3).named("jacobi3"); }),
       "64", "jacobi3("});
  all.push_back(
      {"j2d5pt.inline",
       grid_stencil(2, clamp,
                    [](Val w) {
                      Val n = w.at(0).at(1), west = w.at(1).at(0), c = w.at(1).at(1),
                          s = w.at(2).at(1), e = w.at(1).at(2);
                      return ((5 * n + 12 * west + 15 * c + 5 * s + 12 * e) / 118).named("jacobi5");
                    }),
       "16x16", "jacobi5("});
  all.push_back({"grad2d inline",
                 grid_stencil(2, mirror,
                              [](Val w) {
                                Val c = w.at(1).at(1), n = w.at(0).at(1), s = w.at(2).at(1);
                                Val e = w.at(1).at(2), west = w.at(1).at(0);
                                Val sq = (c - n) * (c - n) + (c - s) * (c - s) + (c - e) * (c - e) +
                                         (c - west) * (c - west);
                                return (c + 1.0f / sqrt(0.0001f + sq)).named("grad");
                              }),
                 "16x16", "grad("});
  all.push_back(
      {"j2d9pt-gol",
       grid_stencil(2, wrap,
                    [](Val w) {
                      Val alive = w.at(0).at(0) + w.at(0).at(1) + w.at(0).at(2) + w.at(1).at(0) +
                                  w.at(1).at(2) + w.at(2).at(0) + w.at(2).at(1) + w.at(2).at(2);
                      Val c = w.at(1).at(1);
                      return select(alive > 2.5f && alive < 4.5f, fmax(c, 0.5f), fmin(c, -0.5f))
                          .named("life");
                    }),
       "16x16", "life("});
  all.push_back(
      {"3d7pt",
       grid_stencil(3, constant(0.5f),
                    [](Val w) {
                      auto p = [&](int k, int j, int i) { return w.at(1 + k).at(1 + j).at(1 + i); };
                      return (0.161 * p(0, 0, 1) + 0.162 * p(0, 0, -1) + 0.163 * p(0, 1, 0) +
                              0.164 * p(0, -1, 0) + 0.165 * p(1, 0, 0) + 0.166 * p(-1, 0, 0) -
                              1.67 * p(0, 0, 0))
                          .named("jacobi7");
                    }),
       "8x8x8", "jacobi7("});
  all.push_back({"weights-2d", with_input_weights(2), "16x16", "wsum("});
  all.push_back({"weights-3d", with_input_weights(3), "8x8x8", "wsum("});
  all.push_back({"heat3d-fixed-halo", fixed_heat({8, 8, 8}), "", "heat("});
  return all;
}

// Whether `tessera run`'s "interpreter: ... first F, last L" holds the first and last values of
// the C++ program on the same data (the command line's seed, 1). The printed precision depends
// on the stream's state, so the numbers are compared to 4 significant digits.
bool same_first_and_last(const std::string& out, const Expr& program) {
  std::vector<double> values = evaluate(program, random_inputs(program, 1)).flatten();
  std::smatch m;
  if (!std::regex_search(out, m, std::regex(R"(first (\S+), last (\S+))")))
    return false;
  auto close = [](double printed, double value) {
    return std::fabs(printed - value) <= 1e-3 * std::max(1e-3, std::fabs(value));
  };
  return close(std::stod(m[1]), values.front()) && close(std::stod(m[2]), values.back());
}

} // namespace

TEST_CASE("program cli: 20 new-notation programs up to 343 points keep their names and "
          "results through a file and the command line") {
  std::vector<Case> all = cases();
  CHECK(all.size() >= 20);
  for (const auto& c : all) {
    CAPTURE(c.name);
    fs::path file = notation_dir() / (c.name + ".json");
    save_expr_file(c.program, file.string());
    Expr loaded = load_expr_file(file.string());
    // Every name (user functions, their parameters, inputs) and the structure survive the file.
    CHECK(save_expr(loaded) == save_expr(c.program));
    CHECK(structurally_equal(loaded, c.program));
    std::vector<std::string> args = {"run", "--program", file.string()};
    std::vector<int64_t> extents;
    if (!c.size.empty()) {
      args.insert(args.end(), {"--size", c.size});
      for (std::size_t at = 0; at < c.size.size();) {
        std::size_t x = c.size.find('x', at);
        extents.push_back(std::stoll(c.size.substr(at, x - at)));
        at = x == std::string::npos ? c.size.size() : x + 1;
      }
    }
    Result run = cli(args);
    // The end of the output only: the programs of 343 points print long lines.
    auto tail = [](const std::string& s) { return s.substr(s.size() > 800 ? s.size() - 800 : 0); };
    INFO(tail(run.out) << tail(run.err));
    REQUIRE(run.code == 0);
    CHECK(has(run.out, "stencil  " + c.name + " (the program in"));
    CHECK(has(run.out, c.callee));
    CHECK(has(run.out, "OK: the generated kernel matches the interpreter"));
    Expr bound = extents.empty() ? c.program : at_size(c.program, extents);
    CHECK(same_first_and_last(run.out, bound));
  }
}

TEST_CASE("program cli: a saved fixed-halo step runs --steps 3 as three steps") {
  Val u = input("u", array_of(f32(), {16, 16}));
  Fun step = fixed_halo(2, 1, [](Val w) {
    return ((w.at(0).at(1) + w.at(1).at(0) + w.at(1).at(2) + w.at(2).at(1)) / 4).named("avg");
  });
  Expr one = program({u}, u | step);
  fs::path file = notation_dir() / "fixed step.json";
  save_expr_file(one, file.string());
  Result run = cli({"run", "--program", file.string(), "--steps", "3"});
  INFO(run.out << run.err);
  REQUIRE(run.code == 0);
  CHECK(has(run.out, "stencil  fixed step (the program in"));
  CHECK(has(run.out, "OK: the generated kernel matches the interpreter"));
  CHECK(same_first_and_last(run.out, program({u}, u | step | step | step)));
  // The three steps are fused by the temporal rules (the halo's exactness: tests/codegen).
  Result variants = cli({"variants", "--program", file.string(), "--steps", "3"});
  INFO(variants.out.substr(0, 3000));
  CHECK(variants.code == 0);
  CHECK(has(variants.out, "temporal-tiling"));
}
