// `tessera solve`: output, --json, exit codes and the messages of bad input.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/Error.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "runtime/Session.h"

#include "../TempDir.h"
#include "CliRunner.h"

using namespace tessera::testing;

TEST_CASE(
    "tessera solve --tuning-db off: no database, as for explore; refused with --tune explore") {
  const bool had_off = std::filesystem::exists("off");
  auto r = cli({"solve", "poisson2d", "--size", "16", "-q", "--tuning-db", "off"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(std::filesystem::exists("off") == had_off); // it once wrote a database named "off"
  r = cli({"solve", "poisson2d", "--size", "16", "--tune", "explore", "--tuning-db", "off"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "--tune explore records what it explores in a tuning database"));
}

TEST_CASE("tessera solve --tune-operators: named operators alone explored; bad names and a "
          "missing --tune explore refused") {
  auto r = cli({"solve", "poisson2d", "--size", "16", "--tune-operators", "restrict"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "give --tune explore"));
  r = cli({"solve", "poisson2d", "--size", "16", "--tune", "explore", "--tune-operators",
           "restrict,smooth-everything"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "smooth-everything"));
  const std::string db = (make_temp_dir("tessera-tune-operators") / "tuning.json").string();
  // (32^3: the smallest grid tuning explores, TuningOptions::min_points)
  r = cli({"solve", "poisson3d", "--size", "32", "--max-cycles", "2", "--tune", "explore",
           "--tune-budget", "0.2", "--tuning-db", db, "--tune-operators", "residual"});
  INFO(r.out << r.err);
  CHECK(r.code == 1); // 2 cycles do not reach the default tolerance
  CHECK(has(r.err, "exploring residual"));
  CHECK_FALSE(has(r.err, "exploring gsrb")); // explored at 32^3 without --tune-operators
}

TEST_CASE("tessera solve --in-place-gsrb / --out-of-place-gsrb / --wavefront-gsrb: one of them, "
          "for gsrb only") {
  auto r = cli({"solve", "poisson2d", "--size", "16", "--in-place-gsrb", "--out-of-place-gsrb"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "conflict"));
  r = cli({"solve", "poisson2d", "--size", "16", "--wavefront-gsrb", "--in-place-gsrb"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "--in-place-gsrb and --wavefront-gsrb conflict"));
  r = cli({"solve", "poisson2d", "--size", "16", "--wavefront-gsrb", "--smoother", "jacobi"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "--wavefront-gsrb applies to --smoother gsrb"));
  // Levels of 128 or more per side run as one pass (the printout names it), smaller ones as
  // half-sweeps.
  r = cli({"solve", "poisson3d", "--size", "32", "--wavefront-gsrb", "--max-cycles", "3", "--tol",
           "1e-2"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(has(r.out, "finest level's kernels: L0 smooth: vectorized, a CPU's default"));
  r = cli({"solve", "poisson2d", "--size", "16", "--in-place-gsrb", "--smoother", "jacobi"});
  CHECK(r.code == 2);
  CHECK(has(r.err, "--in-place-gsrb applies to --smoother gsrb"));
  r = cli({"solve", "poisson2d", "--size", "16", "-q", "--in-place-gsrb"});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
}

TEST_CASE("tessera solve: prints the residual history, the breakdown and the error; --json") {
  std::string json = (make_temp_dir("tessera-solve") / "solve.json").string();
  auto r = cli({"solve", "poisson2d", "--size", "32", "--profile", "--json", json});
  INFO(r.out << r.err);
  CHECK(r.code == 0);
  CHECK(has(r.out, "cycle  1 (V)"));
  CHECK(has(r.out, "by operator"));
  CHECK(has(r.out, "smooth"));
  CHECK(has(r.out, "max error against the exact solution"));
  CHECK(has(r.out, "converged"));
  std::ifstream in(json);
  auto j = nlohmann::json::parse(in);
  CHECK(j["format"] == "tessera-solve");
  CHECK(j["converged"] == true);
  REQUIRE(j["cycles"].size() >= 2);
  CHECK(j["cycles"].back()["relative_residual"].get<double>() <= 1e-10);
  CHECK(j["mean_convergence_factor"].get<double>() < 0.2);
  // The finest residual as a grid, or its square sums where the level has them
  // (SolverOptions::fused_residual_norm).
  CHECK((j["breakdown"].contains("residual") || j["breakdown"].contains("residual norm")));
  CHECK(j["profiled"] == true);
  CHECK(j["max_error"].get<double>() < 1e-2);
  // Without --profile: no breakdown, each cycle's device time from its first kernel to its last.
  auto plain = cli({"solve", "poisson2d", "--size", "32", "--json", json});
  INFO(plain.out << plain.err);
  CHECK(plain.code == 0);
  CHECK_FALSE(has(plain.out, "by operator"));
  CHECK(has(plain.out, "--profile: the time of each operator"));
  std::ifstream again(json);
  auto k = nlohmann::json::parse(again);
  CHECK(k["profiled"] == false);
  CHECK(k["breakdown"].empty());
  REQUIRE(k["cycles"].size() == j["cycles"].size());
  for (std::size_t c = 0; c < k["cycles"].size(); ++c) {
    CHECK(k["cycles"][c]["relative_residual"] == j["cycles"][c]["relative_residual"]);
    CHECK(k["cycles"][c]["device_ms"].get<double>() > 0);
  }
}

TEST_CASE("tessera solve: bad input is an error with exit status 2; not converging is 1") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  std::vector<Case> cases = {
      {{"solve", "heat9d"}, "unknown problem 'heat9d'"},
      {{"solve", "poisson3d", "--size", "15"}, "does not coarsen"},
      {{"solve", "poisson3d", "--size", "-4"}, "bad size"},
      {{"solve", "poisson3d", "--size", "16x32x16"}, "cubes"},
      {{"solve", "poisson3d", "--size", "16", "--cycle", "X"}, "unknown cycle 'X'"},
      {{"solve", "poisson3d", "--size", "16", "--smoother", "sor"}, "unknown smoother 'sor'"},
      {{"solve", "poisson3d", "--size", "16", "--precision", "f16"}, "unknown precision 'f16'"},
      {{"solve", "poisson3d", "--size", "16", "--omega", "2.5"}, "--omega must be between"},
      {{"solve", "poisson3d", "--size", "16", "--pre", "0", "--post", "0"}, "smoothing steps"},
      {{"solve", "helmholtz3d", "--size", "15", "--centring", "vertex"}, "cell-centred"},
      // hpgmg3d (HPGMG-FV's problem, docs/multigrid.md) and the options that conflict with it.
      {{"solve", "hpgmg3d", "--size", "16", "--order", "4", "--smoother", "line-z"},
       "quadratic boundary"},
      {{"solve", "hpgmg3d", "--size", "16", "--order", "3"}, "got 3"},
      {{"solve", "poisson3d", "--size", "16", "--order", "2"}, "--order applies to hpgmg3d"},
      {{"solve", "hpgmg3d", "--size", "8"}, "at least 16 cells per side"},
      {{"solve", "hpgmg3d", "--size", "48"}, "power of two"},
      {{"solve", "hpgmg3d", "--size", "16", "--centring", "vertex"}, "cell-centred"},
      {{"solve", "hpgmg3d", "--size", "16", "--smoother", "line-x"}, "quadratic boundary"},
      {{"solve", "hpgmg3d", "--size", "16", "--anisotropy", "0.1"}, "not hpgmg3d"},
      {{"solve", "poisson3d", "--size", "16", "--smoother", "jacobi", "--out-of-place-gsrb"},
       "--out-of-place-gsrb applies to --smoother gsrb"},
      {{"solve", "poisson3d", "--size", "16", "--separate-launches", "--coarse-launch", "8"},
       "--separate-launches and --coarse-launch 8 conflict"},
      {{"solve", "poisson3d", "--size", "16", "--coarse-launch", "0"}, "--coarse-launch"},
      // The correction fused with a half-sweep written out of place (docs/multigrid.md).
      {{"solve", "poisson3d", "--size", "16", "--fused-correction", "--in-place-gsrb"},
       "--fused-correction fuses the linear correction with a red-black half-sweep written out "
       "of place; --in-place-gsrb"},
      {{"solve", "poisson3d", "--size", "16", "--fused-correction", "--smoother", "jacobi"},
       "--smoother jacobi has no half-sweep"},
      {{"solve", "poisson3d", "--size", "16", "--fused-correction", "--fused-smoothing"},
       "--fused-smoothing runs the post-smoothing"},
      {{"solve", "poisson3d", "--size", "16", "--fused-correction", "--interpolation", "constant"},
       "--interpolation constant is not the linear one"},
  };
  for (const auto& c : cases) {
    auto r = cli(c.args);
    CAPTURE(c.args);
    CAPTURE(r.err);
    CHECK(r.code == 2);
    CHECK(has(r.err, c.message));
  }
  // In place (the default) and out of place: the same residual history (cycle lines).
  auto in_place = cli({"solve", "poisson3d", "--size", "16"});
  auto out_of_place = cli({"solve", "poisson3d", "--size", "16", "--out-of-place-gsrb"});
  CHECK(in_place.code == 0);
  CHECK(out_of_place.code == 0);
  auto history = [](const std::string& out) { // the cycle lines without their times
    std::string lines, line;
    std::istringstream in(out);
    while (std::getline(in, line))
      if (line.rfind("cycle ", 0) == 0 && has(line, "||r||"))
        lines += line.substr(0, line.find("  device")) + "\n";
    return lines;
  };
  CHECK(history(in_place.out) == history(out_of_place.out));
  CHECK(!history(in_place.out).empty());
  // The correction fused with the first half-sweep: the same history to the printed digits.
  auto fused = cli({"solve", "poisson3d", "--size", "16", "--out-of-place-gsrb",
                    "--fused-correction", "--separate-launches", "--profile"});
  INFO(fused.err);
  CHECK(fused.code == 0);
  CHECK(has(fused.out, "prolong+smooth"));
  CHECK(history(fused.out) == history(out_of_place.out));
  // The small levels in one launch (the default) and every operator its own launch: the same
  // history; the output says which ran.
  auto separate = cli({"solve", "poisson3d", "--size", "16", "--separate-launches"});
  CHECK(separate.code == 0);
  CHECK(history(separate.out) == history(in_place.out));
  CHECK(has(separate.out, "coarse levels: separate launches: turned off"));
  CHECK(has(in_place.out, "coarse levels: steps on buffers of at most"));
  auto named = cli({"solve", "poisson3d", "--size", "32", "--variant", "residual=1"});
  CHECK(named.code == 0);
  auto too_far = cli({"solve", "poisson3d", "--size", "32", "--variant", "residual=100000"});
  CHECK(too_far.code == 2);
  CHECK(has(too_far.err, "executable variants"));
  auto malformed = cli({"solve", "poisson3d", "--size", "32", "--variant", "residual"});
  CHECK(malformed.code == 2);
  CHECK(has(malformed.err, "expected OPERATOR=K"));
  auto stuck = cli({"solve", "poisson2d", "--size", "16", "--max-cycles", "2"});
  CHECK(stuck.code == 1);
  CHECK(has(stuck.err, "was not reached in 2 cycles"));
  // A tolerance below the precision's round-off floor is input no run can meet: status 2, and
  // the tolerance that can be reached.
  auto single = cli({"solve", "poisson2d", "--size", "32", "--precision", "f32"});
  CHECK(single.code == 2);
  CHECK(has(single.err, "error: the tolerance 1e-10 is below what f32 can resolve on this grid"));
  CHECK(has(single.err, "or use --precision f64"));
}

TEST_CASE("tessera solve: an f64 tolerance below the round-off floor says so") {
  auto r = cli({"solve", "poisson2d", "--size", "256", "--tol", "1e-14", "--max-cycles", "30"});
  INFO(r.err);
  CHECK(r.code == 2);
  CHECK(has(r.err, "error: the tolerance 1e-14 is below what f64 can resolve on this grid"));
  // The tolerance it asks for is reached.
  const auto at = r.err.find("ask for --tol ");
  REQUIRE(at != std::string::npos);
  const std::string reachable = r.err.substr(at + 14, r.err.find(' ', at + 14) - at - 14);
  CHECK(cli({"solve", "poisson2d", "--size", "256", "--tol", reachable}).code == 0);
}

TEST_CASE("tessera solve: options given wrong values say what is expected") {
  struct Case {
    std::vector<std::string> args;
    std::string message;
  };
  std::vector<Case> cases = {
      {{"solve", "poisson2d", "--variant", "foo=3"},
       "unknown operator 'foo' (the operators are gsrb-red, gsrb-black"},
      {{"solve", "poisson2d", "--variant", "residual=-1"}, "expected OPERATOR=K with K from 0"},
      {{"solve", "poisson2d", "--anisotropy", "0"},
       "--anisotropy: expected a positive number, got '0'"},
      {{"solve", "poisson2d", "--anisotropy", "nan"}, "expected a positive number"},
      {{"solve", "poisson2d", "--tol", "0"}, "--tol: expected a positive number"},
      {{"solve", "poisson2d", "--json", ""}, "--json: expected a value like solve.json"},
      {{"solve", "poisson2d", "--tuning-db", ""}, "--tuning-db: expected a value like"},
      {{"solve", "poisson2d", "--max-cycles", "99999999999999999999"},
       "--max-cycles: expected an integer from 1 to 1000000, got '99999999999999999999'"},
      {{"solve", "poisson2d", "--pre", "-1"}, "--pre: expected an integer from 0 to 1000"},
      {{"solve", "poisson2d", "--coarse-sweeps", "x"}, "--coarse-sweeps: expected an integer"},
      {{"solve", "poisson3d", "--wavefront-steps", "5"},
       "--wavefront-steps: expected an integer from 1 to 4, got '5'"},
      {{"solve", "poisson3d", "--wavefront-steps", "2", "--in-place-gsrb"},
       "--wavefront-steps 2 and --in-place-gsrb conflict"},
      {{"solve", "poisson3d", "--wavefront-steps", "2", "--smoother", "jacobi"},
       "--wavefront-steps 2 applies to --smoother gsrb"},
      {{"explore", "j1d3pt", "--size", "64", "--devices", ""},
       "--devices: expected a value like all"},
      // Sizes: each refusal names both forms a multigrid size may take.
      {{"solve", "poisson3d", "--size", "3x5"},
       "bad size '3x5' for poisson3d (3-D): give one side such as 64, or 3 equal extents such as "
       "64x64x64 (the multigrid grids are cubes)"},
      {{"solve", "poisson3d", "--size", "16x8x8"},
       "bad size '16x8x8' for poisson3d: its extents differ; give one side such as 64, or 3 "
       "equal extents such as 64x64x64"},
  };
  for (const auto& c : cases) {
    auto r = cli(c.args);
    CAPTURE(c.args);
    CAPTURE(r.err);
    CHECK(r.code == 2);
    CHECK(has(r.err, c.message));
    CHECK_FALSE(has(r.err, "Could not convert"));
  }
  CHECK(cli({"solve", "poisson3d", "--size", "16x16x16"}).code == 0);
}

TEST_CASE("the solver API: a NaN or an infinity in the right-hand side is named") {
  using namespace tessera::multigrid;
  auto session = tessera::runtime::Session::from_env("");
  for (double bad : {std::nan(""), HUGE_VAL}) {
    Problem p = manufactured_poisson(2, 16, Centring::Cell);
    p.rhs[37] = bad;
    std::string message;
    try {
      Solver solver(session, p, SolverOptions{});
    } catch (const tessera::Error& e) {
      message = e.what();
    }
    CAPTURE(message);
    CHECK(has(message, "the right-hand side has "));
    CHECK(has(message, " at index 37 (of 256 values): every value must be a finite number"));
  }
}

TEST_CASE("tessera solve: kernel builds are reported apart from the cycles; -q prints no cycle") {
  std::string json = (make_temp_dir("tessera-solve-build") / "solve.json").string();
  auto r = cli({"solve", "poisson3d", "--size", "16", "--json", json});
  INFO(r.out << r.err);
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "kernels built and first launched in "));
  CHECK(has(r.out, "before cycle 1 (not in the cycle times)"));
  std::ifstream in(json);
  auto j = nlohmann::json::parse(in);
  REQUIRE(j.contains("build_ms"));
  const double build_ms = j["build_ms"].get<double>();
  CHECK(build_ms > 0);
  // Cycle 1 is timed as the later ones are: no kernel is built in it, so it is no slower than
  // the builds (which include one launch of each kernel) and of the order of the other cycles.
  REQUIRE(j["cycles"].size() >= 3);
  double later_wall = 0;
  for (std::size_t c = 1; c < j["cycles"].size(); ++c)
    later_wall = std::max(later_wall, j["cycles"][c]["wall_ms"].get<double>());
  const double first_wall = j["cycles"][0]["wall_ms"].get<double>();
  CHECK(first_wall < build_ms);
  CHECK(first_wall < 5 * later_wall + 50); // a cold cycle 1 took 100x the others
  for (const auto& c : j["cycles"])
    CHECK(c["device_ms"].get<double>() <= c["wall_ms"].get<double>() + 1);

  auto quiet = cli({"solve", "poisson3d", "--size", "16", "-q"});
  CHECK(quiet.code == 0);
  CHECK_FALSE(has(quiet.out, "cycle  1 (V)"));
  CHECK(has(quiet.out, "mean convergence factor"));
  CHECK(has(quiet.out, "kernels built"));
}

TEST_CASE("tessera solve --help: every operator --variant takes, sizes of both centrings") {
  auto r = cli({"solve", "--help"});
  CHECK(r.code == 0);
  for (const char* op :
       {"gsrb-red", "gsrb-black", "gsrb-step", "line-red", "line-black", "jacobi", "residual",
        "residual-norm", "restrict", "prolong", "fmg-prolong", "restrict-beta0..2"})
    CHECK_MESSAGE(has(r.out, op), op);
  CHECK_FALSE(has(r.out, "see `tessera solve --help`"));
  CHECK(has(r.out, "vertex-centred, 2^k - 1"));
}
