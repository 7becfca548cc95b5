// The tessera command line: --help everywhere, clear errors with non-zero exit codes for wrong
// input, and a small exploration end to end (explore -> report -> plot), in-process through
// run_cli and, for Ctrl-C, through the built binary.
#include <doctest/doctest.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "explore/Plot.h"
#include "explore/Report.h"
#include "tests/TempDir.h"
#include "tests/tools/CliRunner.h"

using namespace tessera;
namespace fs = std::filesystem;

namespace {

using testing::cli;
using testing::has;
using testing::Result;

fs::path temp_dir() {
  static fs::path dir = testing::make_cli_dir("tessera-cli"); // kernels to a private cache
  return dir;
}

// Starts the built binary with stdout discarded; returns its pid.
pid_t spawn(std::vector<std::string> args) {
  std::fflush(nullptr); // nothing buffered may be written twice
  pid_t pid = ::fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto& a : args)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    if (!std::freopen("/dev/null", "w", stdout))
      ::_exit(126);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return pid;
}

void wait_for(const fs::path& file) {
  auto start = std::chrono::steady_clock::now();
  while (!fs::exists(file) && std::chrono::steady_clock::now() - start < std::chrono::seconds(60))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

std::string read_text(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_CASE("cli: --help works for the program and every command") {
  Result top = cli({"--help"});
  CHECK(top.code == 0);
  CHECK(has(top.out, "explore"));
  for (const char* command :
       {"list", "devices", "show", "variants", "emit", "run", "explore", "report", "plot"}) {
    CAPTURE(command);
    Result r = cli({command, "--help"});
    CHECK(r.code == 0);
    CHECK(has(r.out, "Usage"));
  }
  CHECK(has(cli({"explore", "--help"}).out, "--budget"));
  // A word that is not a command is named, with the commands there are.
  Result unknown = cli({"frobnicate"});
  CHECK(unknown.code == 2);
  CHECK(has(unknown.err, "unknown command 'frobnicate'"));
  CHECK(has(unknown.err, "list, devices, show, variants, emit, run, explore"));
}

TEST_CASE("cli: list, show, variants and emit") {
  Result list = cli({"list"});
  CHECK(list.code == 0);
  CHECK(has(list.out, "j2d5pt"));
  Result show = cli({"show", "j2d5pt", "--size", "16x16"});
  CHECK(show.code == 0);
  CHECK(has(show.out, "MapGlb"));
  Result variants = cli({"variants", "j1d3pt", "--size", "64", "--depth", "1"});
  CHECK(variants.code == 0);
  CHECK(has(variants.out, "plain MapGlb lowering"));
  CHECK(has(variants.out, " s in all (lowering and generating included)"));
  CHECK(has(variants.out, "   1  "));
  Result emit = cli({"emit", "j1d3pt", "--size", "64", "--variant", "1"});
  CHECK(emit.code == 0);
  CHECK(has(emit.out, "__kernel"));
  fs::path file = temp_dir() / "k.cl";
  CHECK(cli({"emit", "j2d5pt", "--size", "64x64", "--local", "32x8", "-o", file.string()}).code ==
        0);
  CHECK(has(read_text(file), "__kernel"));
  Result none = cli({"emit", "j1d3pt", "--size", "64", "--variant", "9999"});
  CHECK(none.code == 2);
  CHECK(has(none.err, "error: no variant 9999"));
}

TEST_CASE("cli: --variant takes a variant's name, the same variant at another size") {
  // Numbers shift between 64x64 and 61x61 (split-join of 61 rows is absent); the name picks
  // the same rewrite at both.
  const std::string name = "tile-nd at [1] {dims=2, tile=16}; mapping: coarsened";
  for (const char* size : {"64x64", "61x61"}) {
    Result run = cli({"run", "j2d5pt", "--size", size, "--variant", name});
    INFO(run.err);
    CHECK(run.code == 0);
    CHECK(has(run.out, std::string(size) == "64x64" ? "variant  26 (" + name + "): "
                                                    : "variant  18 (" + name + "): "));
    CHECK(has(run.out, "OK: the generated kernel matches the interpreter"));
    Result emit = cli({"emit", "j2d5pt", "--size", size, "--variant", "[tiled] " + name});
    CHECK(has(emit.out, "1. tile-nd at [1] {dims=2, tile=16}"));
  }
  Result absent = cli({"emit", "j2d5pt", "--size", "61x61", "--variant",
                       "split-join at [1] {chunk=4}; mapping: work-groups"});
  CHECK(absent.code == 2);
  CHECK(has(absent.err, "error: no variant named 'split-join at [1] {chunk=4}; mapping: "
                        "work-groups' here"));
}

// Rolling tiles are offered to a CPU alone: `tessera variants` (no device) does not list them,
// and `run` finds the name among the variants of its device (PoCL) and checks the kernel.
TEST_CASE("cli: run names a variant only its device is offered") {
  const std::string name =
      "rolling-tiling at [1] {band=3, rows=16, steps=3, tile=40}; mapping: global";
  Result listed = cli({"variants", "j2d5pt", "--size", "48x40", "--steps", "3"});
  CHECK(!has(listed.out, "rolling-tiling at"));
  CHECK(has(listed.out, "rolling-tiling: not a CPU"));
  Result run = cli({"run", "j2d5pt", "--size", "48x40", "--steps", "3", "--variant", name});
  INFO(run.out << run.err);
  CHECK(run.code == 0);
  CHECK(has(run.out, " of this device's variants (" + name + "): "));
  CHECK(has(run.out, "OK: the generated kernel matches the interpreter"));
  Result emit = cli({"emit", "j2d5pt", "--size", "48x40", "--steps", "3", "--variant", name});
  CHECK(emit.code == 2);
  CHECK(has(emit.err, "error: no variant named"));
}

TEST_CASE("cli: wrong input is a clear error with a non-zero exit code") {
  auto expect_error = [](std::vector<std::string> args, const std::string& message) {
    CAPTURE(args);
    Result r = cli(args);
    CHECK(r.code != 0);
    CHECK(has(r.err, "error: "));
    CHECK(has(r.err, message));
  };
  expect_error({"explore", "nosuch", "--size", "64x64"}, "unknown stencil 'nosuch'");
  expect_error({"show", "nosuch"}, "unknown stencil");
  expect_error({"explore", "j2d5pt", "--size", "64"}, "2-D: give 2 extents");
  expect_error({"explore", "j2d5pt", "--size", "64xN"}, "numeric extents");
  expect_error({"explore", "j2d5pt", "--size", "0x64"}, "not a positive integer");
  expect_error({"explore", "j2d5pt", "--size", "64x"}, "bad size");
  expect_error({"explore", "j2d5pt", "--size", "100000x100000"}, "2^31");
  expect_error({"explore", "j2d5pt"}, "--size is required");
  expect_error({"explore", "j2d5pt", "--size", "64x64", "--device", "no-such-device"},
               "no OpenCL device matches");
  expect_error({"explore", "j2d5pt", "--size", "64x64", "--strategy", "magic"},
               "unknown search strategy");
  expect_error({"explore", "j2d5pt", "--size", "64x64", "--budget", "-1"}, "budget");
  expect_error({"explore", "j2d5pt", "--size", "64x64", "--resume"}, "--resume needs --json");
  expect_error({"report", (temp_dir() / "missing.json").string()}, "cannot read report");
  fs::path bad = temp_dir() / "bad.json";
  std::ofstream(bad) << "{ not json";
  expect_error({"report", bad.string()}, "invalid JSON");
  fs::path other = temp_dir() / "other.json";
  std::ofstream(other) << "{\"format\": \"tessera-expr\"}";
  expect_error({"report", other.string()}, "not a tessera report");
  expect_error({"plot", other.string(), "-o", (temp_dir() / "x.svg").string()},
               "not a tessera report");
  expect_error({"plot", bad.string()}, "required");
  expect_error({"frobnicate"}, "error");
}

TEST_CASE("cli: a small exploration writes a report and a plot; report and plot read it") {
  fs::path json = temp_dir() / "j2d5pt.json";
  fs::path svg = temp_dir() / "j2d5pt.svg";
  bool plot = !explore::find_gnuplot().empty();
  std::vector<std::string> args = {"explore",  "j2d5pt", "--size", "64x64",
                                   "--budget", "8",      "--json", json.string()};
  if (plot)
    args.insert(args.end(), {"--plot", svg.string()});
  Result r = cli(args);
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "best / baseline = "));
  CHECK(has(r.out, "of the 8 s budget"));
  explore::Report report = explore::read_report(json.string());
  CHECK(report.stencil == "j2d5pt");
  CHECK(report.size == std::vector<int64_t>{64, 64});
  CHECK(report.check_method == "the reference interpreter");
  CHECK(report.copy_gb_per_s > 0);
  // Within the budget; one point may overrun its estimate a little on a loaded machine.
  CHECK(report.elapsed_s <= 8.0 + 1.0);
  REQUIRE(report.best);
  REQUIRE(report.baseline);
  CHECK(report.find(*report.best)->status == explore::PointStatus::Ok);
  CHECK(report.find(*report.best)->gb_per_s > 0);
  CHECK(report.speedup > 0);
  CHECK(report.points.size() > 3);
  CHECK(report.strategies.size() == 5);

  Result text = cli({"report", json.string()});
  CHECK(text.code == 0);
  CHECK(has(text.out, "tessera report: j2d5pt 64x64"));
  CHECK(has(text.out, "fastest points"));
  if (plot) {
    CHECK(has(read_text(svg), "<svg"));
    fs::path again = temp_dir() / "again.svg";
    Result p = cli({"plot", json.string(), "-o", again.string()});
    CHECK(p.code == 0);
    CHECK(has(read_text(again), "<svg"));
  }
}

TEST_CASE("cli: Ctrl-C leaves a valid report that --resume continues (the built binary)") {
  fs::path json = temp_dir() / "j1d3pt.json";
  // 2^20 points: checked against the trusted variant, not the interpreter. 200 launches per
  // point keep the run busy long enough to be interrupted in the middle.
  std::vector<std::string> args = {TESSERA_BINARY, "explore",  "j1d3pt",      "--size",
                                   "1048576",      "--depth",  "0",           "--repeats",
                                   "200",          "--budget", "60",          "--strategy",
                                   "exhaustive",   "--json",   json.string(), "-q"};
  pid_t pid = spawn(args);
  REQUIRE(pid > 0);
  // Interrupt as soon as the first points are in the report.
  wait_for(json);
  ::kill(pid, SIGINT);
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 130);
  explore::Report interrupted = explore::read_report(json.string());
  CHECK(interrupted.interrupted);
  CHECK_FALSE(interrupted.complete);
  CHECK(has(interrupted.check_method, "trusted"));
  std::size_t before = interrupted.points.size();
  CHECK(before >= 1);

  // A budget far above the seconds the rest takes on an idle machine: under load (a loaded CI
  // machine) the space must still be completed, which is what this case checks.
  Result resumed =
      cli({"explore", "j1d3pt", "--size", "1048576", "--depth", "0", "--repeats", "200", "--budget",
           "600", "--strategy", "exhaustive", "--json", json.string(), "--resume", "-q"});
  INFO(resumed.err);
  CHECK(resumed.code == 0);
  explore::Report done = explore::read_report(json.string());
  CHECK(done.runs == 2);
  CHECK_FALSE(done.interrupted);
  CHECK(done.complete);
  CHECK(done.points.size() > before);
  for (const auto& p : interrupted.points) {
    const explore::PointResult* q = done.find(p.id);
    REQUIRE(q);
    CHECK(q->finished_at_s == p.finished_at_s); // reused, not measured again
  }
  // Resuming a report of another size is refused.
  Result wrong = cli(
      {"explore", "j1d3pt", "--size", "4096", "--depth", "0", "--json", json.string(), "--resume"});
  CHECK(wrong.code == 2);
  CHECK(has(wrong.err, "cannot resume"));
}

TEST_CASE("cli: a killed exploration leaves a valid report (atomic writes)") {
  fs::path json = temp_dir() / "killed.json";
  pid_t pid = spawn({TESSERA_BINARY, "explore", "j1d3pt", "--size", "4096", "--depth", "1",
                     "--budget", "60", "--strategy", "exhaustive", "--json", json.string(), "-q"});
  REQUIRE(pid > 0);
  wait_for(json);
  std::this_thread::sleep_for(std::chrono::milliseconds(300)); // somewhere in later points
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  explore::Report report = explore::read_report(json.string());
  CHECK(report.points.size() >= 1);
  CHECK(report.stencil == "j1d3pt");
}
