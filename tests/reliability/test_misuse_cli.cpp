// The misuse catalogue, continued: the command line under misuse (issue 15). Outputs that are
// not regular files, read-only files, an output that is also an input, two runs on one report,
// --resume that cannot continue exactly, an early Ctrl-C, budgets too small for the problem,
// `run` on grids that do not fit in memory, sizes that 32-bit indices cannot address, and the
// messages of options given wrong values. Each entry checks the exit status and the message
// (docs/cli.md gives the decisions behind them).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "core/FileLock.h"
#include "core/Json.h"
#include "explore/Plot.h"
#include "explore/Report.h"
#include "stencils/Catalog.h"
#include "tests/reliability/CliRunner.h"

using namespace tessera;
using namespace tessera::misuse;
namespace fs = std::filesystem;

namespace {

using Env = std::vector<std::pair<std::string, std::string>>;

Env cache_env() {
  return {{"TESSERA_CACHE_DIR", (temp_dir() / "cli-cache").string()}};
}

fs::path fresh_dir(const std::string& name) {
  fs::path dir = temp_dir() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// A small exploration that finishes quickly (7 points).
std::vector<std::string> small_explore(const fs::path& json) {
  return {"explore",  "j1d3pt", "--size", "64",          "--depth", "0",
          "--budget", "20",     "--json", json.string(), "-q"};
}

// A long exploration (2^20 points, 200 launches a point): runs until interrupted.
std::vector<std::string> long_explore(const fs::path& json) {
  return {"explore", "j1d3pt",     "--size",     "1048576", "--depth",     "0", "--repeats",
          "200",     "--strategy", "exhaustive", "--json",  json.string(), "-q"};
}

bool is_char_device(const fs::path& p) {
  struct stat info {};
  return ::lstat(p.c_str(), &info) == 0 && S_ISCHR(info.st_mode);
}

unsigned mode_of(const fs::path& p) {
  struct stat info {};
  ::stat(p.c_str(), &info);
  return info.st_mode & 07777;
}

void check_ok(const Run& r) {
  CAPTURE(r.err);
  CHECK(r.code == 0);
  CHECK_FALSE(has(r.err, "error"));
}

void ignore_sigint() {
  std::signal(SIGINT, SIG_IGN); // as a background job of a script starts
}

void limit_address_space() {
  rlimit limit{std::size_t{2} << 30, std::size_t{2} << 30};
  ::setrlimit(RLIMIT_AS, &limit);
}

// j1d3pt over N points saved as the user's own program (what --program reads).
fs::path saved_program() {
  fs::path p = temp_dir() / "user-j1d3pt.json";
  if (!fs::exists(p))
    save_expr_file(stencils::find_stencil("j1d3pt").build({ArithExpr::size_var("N")}), p.string());
  return p;
}

std::string report_with(const std::function<void(nlohmann::json&)>& change) {
  auto j = nlohmann::json::parse(read_text(small_report()));
  change(j);
  return j.dump();
}

} // namespace

// ---- 1. outputs: never destroy a file ---------------------------------------------------------

TEST_CASE("misuse catalogue (1): a character device output is written through, not replaced") {
  fs::path dir = fresh_dir("chardev");
  fs::path null = dir / "null";
  if (::mknod(null.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
    MESSAGE("skipped: cannot make a device node (mknod needs root): " << std::strerror(errno));
    return;
  }
  check_ok(run_tessera(small_explore(null), cache_env()));
  CHECK(is_char_device(null));
  check_ok(run_tessera({"emit", "j1d3pt", "-o", null.string()}));
  CHECK(is_char_device(null));
  if (!explore::find_gnuplot().empty()) {
    check_ok(run_tessera({"plot", small_report().string(), "-o", null.string()}));
    CHECK(is_char_device(null));
  }
  CHECK(fs::directory_iterator(dir) != fs::directory_iterator()); // only the node is there
  for (const auto& e : fs::directory_iterator(dir))
    CHECK(e.path() == null);
}

TEST_CASE("misuse catalogue (1): links stay links, modes stay, read-only files and other nodes "
          "are refused") {
  fs::path dir = fresh_dir("outputs");
  // A symbolic link (dangling at first): the file it names is written, the link stays.
  fs::create_symlink("real.json", dir / "link.json");
  check_ok(run_tessera(small_explore(dir / "link.json"), cache_env()));
  CHECK(fs::is_symlink(fs::symlink_status(dir / "link.json")));
  CHECK_NOTHROW(explore::read_report((dir / "real.json").string()));

  // The mode of an existing file is kept.
  fs::permissions(dir / "real.json", static_cast<fs::perms>(0640));
  check_ok(run_tessera(small_explore(dir / "link.json"), cache_env()));
  CHECK(mode_of(dir / "real.json") == 0640);

  // A read-only file is refused, even for root, and left as it was.
  fs::path ro = dir / "ro.json";
  std::ofstream(ro) << "keep me\n";
  fs::permissions(ro, static_cast<fs::perms>(0444));
  check_cli_error(small_explore(ro), "cannot write --json '" + ro.string() +
                                         "': it is read-only (mode 444); make it writable");
  check_cli_error({"emit", "j1d3pt", "-o", ro.string()}, "it is read-only (mode 444)");
  CHECK(read_text(ro) == "keep me\n");
  CHECK(mode_of(ro) == 0444);

  // Directories and FIFOs are refused before any work.
  fs::create_directories(dir / "a-dir");
  check_cli_error(small_explore(dir / "a-dir"), "it is a directory; give the name of a regular "
                                                "file");
  CHECK(fs::is_directory(dir / "a-dir"));
  ::mkfifo((dir / "fifo").c_str(), 0644);
  check_cli_error({"emit", "j1d3pt", "-o", (dir / "fifo").string()}, "it is a FIFO");
  CHECK(fs::is_fifo(dir / "fifo"));
}

TEST_CASE("misuse catalogue (1): an output that is also an input is refused (by identity)") {
  fs::path dir = fresh_dir("same-file");
  fs::path report = dir / "r.json";
  fs::copy_file(small_report(), report);
  std::string before = read_text(report);
  fs::create_symlink("r.json", dir / "alias.json");
  // The same file under other names: "./", "..", a symbolic link.
  std::string dotted = (dir / "." / "r.json").string();
  check_cli_error(
      {"explore", "j1d3pt", "--size", "64", "--json", report.string(), "--plot", dotted},
      "--json and --plot name the same file");
  check_cli_error({"explore", "j1d3pt", "--size", "64", "--json", (dir / "new.json").string(),
                   "--plot", (dir / ".." / dir.filename() / "new.json").string()},
                  "the picture would replace the report");
  check_cli_error({"plot", report.string(), "-o", (dir / "alias.json").string()},
                  "-o names the report itself");
  check_cli_error({"plot", report.string(), "-o", dotted}, "-o names the report itself");
  CHECK(read_text(report) == before);
  CHECK_FALSE(fs::exists(dir / "new.json"));

  // emit's two outputs, and the --program file that a command reads.
  check_cli_error({"emit", "j1d3pt", "-o", report.string(), "--json", dotted},
                  "-o and --json name the same file");
  fs::path program = dir / "p.json";
  fs::copy_file(saved_program(), program);
  std::string program_text = read_text(program);
  check_cli_error({"emit", "--program", program.string(), "-o", (dir / "." / "p.json").string()},
                  "-o names the --program file itself");
  check_cli_error({"emit", "--program", program.string(), "--json", program.string()},
                  "--json names the --program file itself");
  check_cli_error({"explore", "--program", program.string(), "--size", "64", "--json",
                   (dir / "." / "p.json").string()},
                  "--json names the --program file itself");
  CHECK(read_text(report) == before);
  CHECK(read_text(program) == program_text);
}

TEST_CASE("misuse catalogue (1): a second exploration on a report in use fails at once") {
  fs::path dir = fresh_dir("locked");
  fs::path json = dir / "r.json";
  Child first = start_tessera(long_explore(json), cache_env());
  wait_for(json); // the first run owns the report and has written a point
  Run second = run_tessera(small_explore(json), cache_env());
  CAPTURE(second.err);
  CHECK(second.code == 2);
  CHECK(has(second.err, "error: the report '" + json.string() + "' is in use by another run (" +
                            "process " + std::to_string(first.pid) + ")"));
  ::kill(first.pid, SIGINT);
  Run done = first.finish();
  CHECK(done.code == 130);
  explore::Report report = explore::read_report(json.string());
  CHECK(report.size == std::vector<int64_t>{1048576}); // the first run's, not the second's
  // Once the first run has ended, the report is free again (the lock file stays, unlocked).
  CHECK(fs::exists(FileLock::lock_path(json.string())));
  CHECK_NOTHROW(FileLock(json.string()));
}

// ---- 2. --resume refuses what it cannot continue exactly -------------------------------------

TEST_CASE("misuse catalogue (2): --resume of a complete report or with other options") {
  fs::path dir = fresh_dir("resume");
  fs::path json = dir / "r.json";
  fs::copy_file(small_report(), json);
  std::string before = read_text(json);
  REQUIRE(explore::read_report(json.string()).complete);
  std::vector<std::string> again = small_explore(json);
  again.push_back("--resume");
  check_cli_error(again, "cannot resume: the report is complete (all ");
  check_cli_error(again, "points of the space were measured");
  // The same run with one option changed (--depth's value is args[5]).
  auto with = [&](const std::vector<std::string>& args, const std::string& option,
                  const std::string& value) {
    auto changed = args;
    if (option == "--depth")
      changed[5] = value;
    else
      changed.insert(changed.end(), {option, value});
    return changed;
  };
  check_cli_error(with(again, "--depth", "1"), "cannot resume: the report was explored with "
                                               "--depth 0, this run asks for --depth 1");
  check_cli_error(with(again, "--strategy", "random"),
                  "explored with --strategy halving, this run asks for --strategy random");
  check_cli_error(with(again, "--seed", "7"), "explored with --seed 1, this run asks for --seed 7");
  check_cli_error(with(again, "--repeats", "3"), "explored with --repeats 5");
  // Another program under the same name and size: --steps, or another --program file.
  check_cli_error(with(again, "--steps", "2"),
                  "cannot resume: the report is for another program named j1d3pt");
  CHECK(read_text(json) == before); // no point deleted, none measured again
}

// ---- 3. an early Ctrl-C is never lost -----------------------------------------------------------

// AddressSanitizer (the sanitizer build of .ci/run) reserves terabytes of shadow address space,
// so a process under an address-space limit cannot start, and it installs its own handlers and
// slows the start-up that the 50 ms signal below is timed against: these two cases run in the
// plain build only.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kUnderAddressSanitizer = true;
#else
constexpr bool kUnderAddressSanitizer = false;
#endif

TEST_CASE("misuse catalogue (3): Ctrl-C before anything was measured stops at once" *
          doctest::skip(kUnderAddressSanitizer)) {
  fs::path dir = fresh_dir("early-interrupt");
  fs::path json = dir / "r.json";
  // As soon as the handler is installed (before the OpenCL platform exists), even when started
  // with SIGINT ignored.
  for (bool ignored : {false, true}) {
    CAPTURE(ignored);
    Child child =
        start_tessera(long_explore(json), cache_env(), {}, ignored ? ignore_sigint : nullptr);
    wait_for_handler(child.pid, SIGINT);
    ::kill(child.pid, SIGINT);
    Run r = child.finish();
    CAPTURE(r.err);
    CHECK(r.code == 130);
    CHECK(has(r.err, "interrupted before any point was measured: nothing was written (no "
                     "report)"));
    CHECK_FALSE(fs::exists(json));
  }
  // During a long enumeration (j3d7pt at depth 2): the enumeration stops too.
  Child child = start_tessera({"explore", "j3d7pt", "--size", "32x32x32", "--depth", "2",
                               "--budget", "600", "--json", json.string()},
                              cache_env());
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  ::kill(child.pid, SIGINT);
  Run r = child.finish();
  CAPTURE(r.err);
  CHECK(r.code == 130);
  CHECK((has(r.err, "interrupted before any point was measured") ||
         has(r.out, "interrupted: continue with --resume")));
}

// ---- 4. the budget explains itself --------------------------------------------------------------

TEST_CASE("misuse catalogue (4): a budget too small for the problem says what would do") {
  // Part of the space measured: how much, what a point costs, what budget would measure all.
  // (Exit status 0, or 1 when a loaded machine left no time for even the baseline.)
  auto finished = [](const Run& r) {
    return r.code == 0 || (r.code == 1 && has(r.out, "result: none"));
  };
  // Depth 2 (about 1000 points): at depth 1 (141 points), with PoCL's kernel cache warm from an
  // earlier run, the whole space was measured within the 5 s and there was nothing to advise.
  Run part = run_tessera({"explore", "j1d3pt", "--size", "65536", "--depth", "2", "--budget", "5",
                          "--strategy", "exhaustive", "-q"},
                         cache_env());
  CAPTURE(part.out);
  CHECK(finished(part));
  CHECK(has(part.out, "note: the 5 s budget measured "));
  CHECK(has(part.out, "points of j1d3pt 65536 (a point costs about "));
  CHECK(has(part.out, "s would measure every point, or explore a smaller --size"));

  // Nothing measured: a result line that says so, advice, and exit status 1.
  Run none =
      run_tessera({"explore", "j1d3pt", "--size", "64", "--budget", "0.01", "-q"}, cache_env());
  CAPTURE(none.out);
  CHECK(none.code == 1);
  CHECK(has(none.out, "result: none: no point was measured successfully"));
  CHECK(has(none.out, "note: the 0.01 s budget measured"));

  // The enumeration counts in the budget, shows its progress and says when it was cut.
  Run cut = run_tessera({"explore", "j3d7pt", "--size", "32x32x32", "--depth", "5", "--budget", "6",
                         "--progress", "-q"},
                        cache_env());
  CAPTURE(cut.out);
  CHECK(finished(cut));
  CHECK(has(cut.err, "enumerating variants: "));
  CHECK(has(cut.out, "note: the enumeration of variants was cut after 1.2 s (its share of the "
                     "budget)"));
}

// ---- 5. run: flat data, memory checked first, any variant ---------------------------------------

TEST_CASE("misuse catalogue (5): run checks host memory first and runs any variant" *
          doctest::skip(kUnderAddressSanitizer)) {
  // 2^26 points need about 3 GB: refused before allocating under a 2 GB address-space limit.
  Run big = run_tessera({"run", "j2d5pt", "--size", "8192x8192"}, {}, {}, limit_address_space);
  CAPTURE(big.err);
  CHECK(big.code == 2);
  CHECK(has(big.err, "error: run 8192x8192 needs about "));
  CHECK(has(big.err, "of host memory (67108864 points), more than the "));

  Run variant = run_tessera({"run", "j2d5pt", "--size", "64x64", "--variant", "3"}, cache_env());
  CAPTURE(variant.out);
  CHECK(variant.code == 0);
  CHECK(has(variant.out, "OK: the generated kernel matches the interpreter"));
  // Beyond the interpreter's grid: the baseline is checked on a small grid, the variant
  // against the baseline on the whole one.
  Run large = run_tessera({"run", "j1d3pt", "--size", "1048576", "--variant", "1"}, cache_env());
  CAPTURE(large.out);
  CHECK(large.code == 0);
  CHECK(has(large.out, "the plain MapGlb lowering matches it on 4096"));
  CHECK(has(large.out, "OK: the generated kernel matches the plain MapGlb lowering"));
  check_cli_error({"run", "j2d5pt", "--size", "64x64", "--variant", "9999"},
                  "no variant 9999: j2d5pt has ");
}

TEST_CASE("misuse catalogue (5): solve checks device and host memory before the work" *
          doctest::skip(kUnderAddressSanitizer)) {
  // poisson3d 1024^3 needs about 39 GB for its levels and 26 GB of host arrays: refused at once
  // (it found out after 38 s, having made the problem's arrays), here under a 2 GB limit.
  const auto start = std::chrono::steady_clock::now();
  Run big = run_tessera({"solve", "poisson3d", "--size", "1024"}, {}, {}, limit_address_space);
  const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
  CAPTURE(big.err);
  CHECK(big.code == 2);
  CHECK(has(big.err, "error: solve poisson3d --size 1024 (f64) needs "));
  CHECK(has(big.err, "give a smaller --size"));
  CHECK(took.count() < 20);
}

// ---- 6. one size check on every command ---------------------------------------------------------

TEST_CASE("misuse catalogue (6): every command refuses grids 32-bit indices cannot address") {
  for (const char* command : {"show", "variants", "emit", "run", "explore"})
    check_cli_error({command, "j3d7pt", "--size", "2048x2048x1024"},
                    "bad size '2048x2048x1024': 4.29497e+09 points is more than the 2^31");
  // The same for the user's own programs.
  for (const char* command : {"show", "variants", "emit", "run", "explore"})
    check_cli_error({command, "--program", saved_program().string(), "--size", "4294967296"},
                    "bad size '4294967296': 4.29497e+09 points is more than the 2^31");
}

// ---- 7. messages --------------------------------------------------------------------------------

TEST_CASE("misuse catalogue (7): options given wrong values say what they expect") {
  fs::path dir = fresh_dir("messages");
  check_cli_error({"show", "j2d5pt", "--size", "-1x4"}, "'-1' is not a positive integer");
  check_cli_error({"explore", "j1d3pt", "--size", "-1"}, "'-1' is not a positive integer");
  Run budget = run_tessera({"explore", "j1d3pt", "--size", "64", "--budget", "0"});
  CHECK(budget.code == 2);
  CHECK(has(budget.err, "error: --budget: expected a positive number of seconds, got '0'"));
  CHECK(budget.err.size() < 200); // no range up to 1.8e308
  check_cli_error({"emit", "j2d5pt", "--variant", "99999999999999"},
                  "no variant 99999999999999: j2d5pt has ");
  check_cli_error({"emit", "j2d5pt", "--variant", "x"},
                  "no variant named 'x' here (a variant as `tessera variants` names it");
  check_cli_error({"emit", "j2d5pt", "--depth", "99999999999"},
                  "--depth: expected an integer from 0 to 8, got '99999999999'");
  check_cli_error({"explore", "j1d3pt", "--size", "64", "--seed", "-1"},
                  "--seed: expected an integer from 0 to 4294967295, got '-1'");
  check_cli_error({"show", "j2d5pt", "--size", ""},
                  "--size: expected a value like 64x64, got an empty one");
  check_cli_error({"show", "--program", ""},
                  "--program: expected a value like program.json, got an empty one");
  check_cli_error({"variants", "j2d5pt", "--steps", "0"},
                  "--steps: expected an integer from 1 to 64, got '0'");
  check_cli_error({"run", "j1d3pt", "--steps", "x"}, "--steps: expected an integer from 1 to 64");
  check_cli_error({"emit", "j2d5pt", "--local", "32x8x2"},
                  "bad work-group size '32x8x2': it has 3 dimensions, the kernel of j2d5pt's "
                  "variant 0 launches 2");
  // --plot into a missing directory fails before the exploration, not after it.
  Run plot = run_tessera(
      {"explore", "j1d3pt", "--size", "64", "--plot", (dir / "no-dir" / "p.svg").string()});
  CHECK(plot.code == 2);
  CHECK(has(plot.err, "error: cannot write --plot '" + (dir / "no-dir" / "p.svg").string() +
                          "': the directory " + (dir / "no-dir").string() + " does not exist"));
  CHECK_FALSE(has(plot.out, "result:"));
  // A gnuplot that fails says how, and that no picture was written.
  check_cli_error({"plot", small_report().string(), "-o", (dir / "p.svg").string()},
                  "gnuplot ('/bin/false') failed with exit status 1 and printed nothing; no "
                  "picture was written",
                  {{"TESSERA_GNUPLOT", "/bin/false"}});
  CHECK_FALSE(fs::exists(dir / "p.svg"));
}

TEST_CASE("misuse catalogue (7): reports with impossible values are refused") {
  fs::path dir = fresh_dir("bad-reports");
  fs::path size = dir / "size.json";
  std::ofstream(size) << report_with([](nlohmann::json& j) { j["size"] = {-5, 3}; });
  check_cli_error({"report", size.string()}, "\"size\" must be 1 to 3 positive extents, got "
                                             "[-5,3]");
  fs::path copy = dir / "copy.json";
  std::ofstream(copy) << report_with([](nlohmann::json& j) { j["device"]["copy_gb_per_s"] = 0; });
  check_cli_error({"report", copy.string()},
                  "\"copy_gb_per_s\" must be a positive number (the device's measured copy "
                  "bandwidth), got 0");
}

TEST_CASE("misuse catalogue (7): an interrupted run's summary names a faster, less timed point") {
  // The best is chosen among fully timed points; a faster point timed once is named, with why.
  fs::path file = temp_dir() / "interrupted.json";
  std::ofstream(file) << report_with([](nlohmann::json& j) {
    j["interrupted"] = true;
    j["best"] = j["baseline"];
    for (auto& p : j["points"])
      if (p["id"] != j["baseline"] && p["status"] == "ok") {
        p["median_ms"] = 1e-6;
        p["repeats"] = 1;
        break;
      }
  });
  Run r = run_tessera({"report", file.string()});
  CAPTURE(r.out);
  CHECK(r.code == 0);
  CHECK(has(r.out, "measured faster (0.000 ms, "));
  CHECK(has(r.out, "from 1 launch; the best is chosen among fully timed points and the run was "
                   "interrupted before the finalists were re-timed: --resume to confirm"));
}
