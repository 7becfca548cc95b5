// `tessera solve --timeline`: the device's commands as a trace, consistent with the report's
// device time, and its file name per rank.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/Error.h"
#include "multigrid/Problems.h"
#include "multigrid/Solver.h"
#include "runtime/Session.h"
#include "runtime/Timeline.h"
#include "tools/SolveCommand.h"

#include "../TempDir.h"
#include "CliRunner.h"

using namespace tessera::testing;

namespace {

nlohmann::json read_json(const std::filesystem::path& path) {
  std::ifstream in(path);
  return nlohmann::json::parse(in);
}

} // namespace

TEST_CASE("tessera solve --timeline: every command of every cycle, the kernels' time equal to "
          "the report's device time") {
  const auto dir = make_temp_dir("tessera-timeline");
  const auto trace = dir / "timeline.json", report = dir / "solve.json";
  auto r =
      cli({"solve", "poisson2d", "--size", "32", "--max-cycles", "3", "--tol", "1e-30",
           "--separate-launches", "-q", "--json", report.string(), "--timeline", trace.string()});
  INFO(r.out << r.err);
  REQUIRE(r.code == 1); // the cycle limit, below a tolerance no run reaches
  const auto events = read_json(trace).at("traceEvents");
  const auto cycles = read_json(report).at("cycles");
  REQUIRE(cycles.size() == 3);
  // The commands of cycle c lie between the markers "cycle c" and "cycle c+1" (or the end).
  std::vector<double> starts;
  double previous = -1;
  for (const auto& e : events) {
    CHECK(e.at("ph") == "X");
    CHECK(e.at("dur").get<double>() >= 0);
    CHECK(e.at("ts").get<double>() >= previous); // ordered by start
    previous = e.at("ts").get<double>();
    if (e.at("name").get<std::string>().rfind("cycle ", 0) == 0)
      starts.push_back(previous);
  }
  REQUIRE(starts.size() == 3);
  starts.push_back(1e300);
  for (std::size_t c = 0; c < 3; ++c) {
    double kernels_us = 0;
    int smooth = 0, markers = 0;
    for (const auto& e : events) {
      const double ts = e.at("ts").get<double>();
      if (ts < starts[c] || ts >= starts[c + 1])
        continue;
      const std::string name = e.at("name");
      if (name.rfind("cycle ", 0) == 0 || name == "norm read")
        ++markers;
      else
        kernels_us += e.at("dur").get<double>();
      smooth += name == "smooth" ? 1 : 0;
    }
    CAPTURE(c);
    CHECK(markers == 2);
    // 5 levels (32 to 2 points a side), V(2,2) with 8 sweeps on the coarsest: every level's
    // red and black half-sweeps are launches of their own.
    CHECK(smooth > 0);
    CHECK(kernels_us / 1e3 ==
          doctest::Approx(cycles[c].at("device_ms").get<double>()).epsilon(1e-6));
  }
}

TEST_CASE("tessera solve --timeline: one file per rank under mpirun, checked before the solve") {
  using tessera::tools::timeline_path;
  CHECK(timeline_path("out/t.json", 0, 1) == "out/t.json");
  CHECK(timeline_path("out/t.json", 1, 2) == "out/t.rank1.json");
  CHECK(timeline_path("t", 0, 4) == "t.rank0");
  const auto dir = make_temp_dir("tessera-timeline-bad");
  auto r =
      cli({"solve", "poisson2d", "--size", "16", "--timeline", (dir / "no" / "t.json").string()});
  CHECK(r.code == 2);
  CHECK(has(r.err, "--timeline"));
  r = cli({"solve", "poisson2d", "--size", "16", "--timeline", (dir / "t.json").string(), "--json",
           (dir / "t.json").string()});
  CHECK(r.code == 2);
  CHECK(has(r.err, "--timeline"));
}

TEST_CASE("a timeline keeps at most its capacity of commands, counts the rest, and records "
          "alone") {
  static auto* session = new tessera::runtime::Session(tessera::runtime::Session::from_env());
  using namespace tessera::multigrid;
  const Problem problem = manufactured_poisson(2, 16, Centring::Cell);
  SolverOptions options;
  options.max_cycles = 2;
  options.tolerance = 1e-30;
  tessera::runtime::Timeline timeline(5);
  CHECK_THROWS_WITH(tessera::runtime::Timeline(),
                    doctest::Contains("two timelines")); // one at a time
  Solver(*session, problem, options).solve();
  const auto trace = timeline.trace(3);
  CHECK(trace.at("traceEvents").size() == 5);
  CHECK(trace.at("dropped").get<std::size_t>() > 0);
  CHECK(trace.at("traceEvents")[0].at("pid") == 3);
}
