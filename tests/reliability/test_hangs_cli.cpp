// Hangs and crashes of the command line (issue 30): a budget bounds the enumeration and the
// lowering of a 64-step stencil (one set of limits, core/WorkLimits.h, polled inside the
// lowering), Ctrl-C ends them within a second or two, a program nested deeper than tessera
// builds gets a message instead of SIGSEGV, and Ctrl-C during `solve` or `sweep` stops at the
// next cycle or exchange period with --json written and marked interrupted (exit 130). Time
// bounds are generous: a loaded 2-core machine must pass them.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "core/Json.h"
#include "stencils/Catalog.h"
#include "tests/DeepProgram.h"
#include "tests/TimeBounds.h"
#include "tests/reliability/CliRunner.h"

using namespace tessera;
using namespace tessera::misuse;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
using Env = std::vector<std::pair<std::string, std::string>>;

Env cache_env() {
  return {{"TESSERA_CACHE_DIR", (temp_dir() / "hangs-cache").string()}};
}

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// j3d13pt (radius 2) at size N x M x L saved as a user's program (what --program reads).
fs::path radius2_program() {
  fs::path p = temp_dir() / "user-radius2.json";
  if (!fs::exists(p))
    save_expr_file(
        stencils::find_stencil("j3d13pt").build(
            {ArithExpr::size_var("N"), ArithExpr::size_var("M"), ArithExpr::size_var("L")}),
        p.string());
  return p;
}

// Ends by itself (0: a result, 1: no point measured in the budget), never by a signal.
void check_ended(const Run& r) {
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK((r.code == 0 || r.code == 1));
  CHECK_FALSE(has(r.err, "terminate called"));
}

nlohmann::json read_json(const fs::path& p) {
  return nlohmann::json::parse(read_text(p));
}

} // namespace

TEST_CASE("hangs: a budget bounds the enumeration and lowering of many fused steps") {
  // Before: `--steps 64 --budget 5` lowered for 70 s past its deadline; `--steps 8` and 16 took
  // 27.5 s of a 5 s budget.
  for (const char* steps : {"8", "64"}) {
    CAPTURE(steps);
    auto start = Clock::now();
    Run r = run_tessera(
        {"explore", "j3d13pt", "--size", "8x8x8", "--steps", steps, "--budget", "3", "-q"},
        cache_env());
    double took = seconds_since(start);
    check_ended(r);
    CHECK(took < testing::within(15));
  }
  // The same program as the user's own.
  auto start = Clock::now();
  Run r = run_tessera({"explore", "--program", radius2_program().string(), "--size", "8x8x8",
                       "--steps", "64", "--budget", "3", "-q"},
                      cache_env());
  check_ended(r);
  CHECK(seconds_since(start) < testing::within(15));
}

TEST_CASE("hangs: Ctrl-C during the lowering of 64 fused steps ends the run within seconds") {
  fs::path json = temp_dir() / "steps64.json";
  Child child = start_tessera({"explore", "j3d13pt", "--size", "8x8x8", "--steps", "64", "--budget",
                               "600", "--json", json.string()},
                              cache_env());
  wait_for_handler(child.pid, SIGINT);
  // Well inside the enumeration and lowering (its share of a 600 s budget is 120 s).
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  auto start = Clock::now();
  ::kill(child.pid, SIGINT);
  Run r = child.finish();
  double took = seconds_since(start);
  CAPTURE(r.err);
  CHECK(r.code == 130);
  CHECK(has(r.err, "interrupted before any point was measured"));
  CHECK(took < testing::within(5)); // before: over a minute
}

TEST_CASE("hangs: a program nested deeper than tessera builds is refused, not a crash") {
  fs::path deep = temp_dir() / "deep.json";
  std::ofstream(deep) << testing::nested_pads_json(20000); // 2 MB; before: SIGSEGV
  for (const char* command : {"show", "variants", "emit"})
    check_cli_error({command, "--program", deep.string(), "--size", "16"},
                    "nested deeper than " + std::to_string(kMaxExprDepth) + " levels");
}

TEST_CASE("hangs: Ctrl-C during solve stops after the cycle in hand, with --json written") {
  fs::path json = temp_dir() / "solve.json";
  fs::remove(json);
  Child child = start_tessera({"solve", "poisson2d", "--size", "128", "--max-cycles", "1000",
                               "--tol", "1e-14", "--json", json.string()},
                              cache_env());
  wait_for_handler(child.pid, SIGINT); // before: the process died by the signal
  ::kill(child.pid, SIGINT);
  Run r = child.finish();
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.code == 130);
  CHECK(has(r.err, "interrupted after 1 of at most 1000 cycles"));
  CHECK(has(r.out, "cycle  1"));
  REQUIRE(fs::exists(json));
  auto j = read_json(json);
  CHECK(j["interrupted"] == true);
  CHECK(j["stop_reason"] == "interrupted");
  CHECK(j["cycles"].size() == 1);
  CHECK_FALSE(j["converged"].get<bool>());
}

#ifdef TESSERA_WITH_MPI
TEST_CASE("hangs: Ctrl-C during sweep stops after the exchange period in hand") {
  fs::path json = temp_dir() / "sweep.json";
  fs::remove(json);
  Child child = start_tessera(
      {"sweep", "j2d5pt", "--size", "256x256", "--iterations", "1000000", "--json", json.string()},
      cache_env());
  wait_for_handler(child.pid, SIGINT);
  ::kill(child.pid, SIGINT);
  Run r = child.finish();
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.code == 130);
  CHECK(has(r.err, "interrupted after 1 of 1000000 exchange periods"));
  REQUIRE(fs::exists(json));
  auto j = read_json(json);
  CHECK(j["interrupted"] == true);
  CHECK(j["iterations"] == 1);
  CHECK(j["iterations_asked"] == 1000000);
}
#endif
