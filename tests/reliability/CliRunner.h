// The `tessera` binary as the misuse catalogue runs it: in a child process with its own
// environment, stdout and stderr captured, and the check that a misuse gets exit status 2 and
// one specific "error: ..." line. Shared by the test_misuse*.cpp files of test_reliability.
#pragma once

#include <doctest/doctest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <utility>
#include <vector>

#include "core/Error.h"
#include "tests/Helpers.h"
#include "tests/TempDir.h"

namespace tessera::misuse {

namespace fs = std::filesystem;
using testing::has;

inline fs::path temp_dir() {
  static fs::path dir = testing::make_temp_dir("tessera-misuse");
  return dir;
}

// Waits until `file` exists, at most `limit` (a child process writes it when it gets that far).
inline void wait_for(const fs::path& file, std::chrono::seconds limit = std::chrono::seconds(60)) {
  auto start = std::chrono::steady_clock::now();
  while (!fs::exists(file) && std::chrono::steady_clock::now() - start < limit)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
}

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// ---- the binary ------------------------------------------------------------------------------

struct Run {
  int code = -1; // exit status, or 128 + signal
  std::string out, err;
};

// A tessera process started by start_tessera; finish() waits for it and reads its output.
struct Child {
  pid_t pid = -1;
  fs::path out, err;
  Run finish() const {
    int status = 0;
    ::waitpid(pid, &status, 0);
    Run r;
    r.code = WIFEXITED(status) ? WEXITSTATUS(status)
                               : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    r.out = read_text(out);
    r.err = read_text(err);
    return r;
  }
};

// Starts the tessera binary with extra environment variables, stdout and stderr captured;
// `in_child` runs in the child before exec (resource limits, signal dispositions).
inline Child start_tessera(const std::vector<std::string>& args,
                           const std::vector<std::pair<std::string, std::string>>& env = {},
                           const std::vector<std::string>& unset = {},
                           void (*in_child)() = nullptr) {
  static int counter = 0;
  Child child;
  child.out = temp_dir() / cat("out-", counter, ".txt");
  child.err = temp_dir() / cat("err-", counter, ".txt");
  ++counter;
  std::fflush(nullptr);
  child.pid = ::fork();
  if (child.pid == 0) {
    for (const auto& [k, v] : env)
      ::setenv(k.c_str(), v.c_str(), 1);
    for (const auto& k : unset)
      ::unsetenv(k.c_str());
    int o = ::open(child.out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int e = ::open(child.err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (o < 0 || e < 0)
      ::_exit(126);
    ::dup2(o, 1);
    ::dup2(e, 2);
    if (in_child)
      in_child();
    std::vector<std::string> all = {TESSERA_BINARY};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (auto& a : all)
      argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  return child;
}

// Waits until the child `pid` runs its own program (not the test's copy of itself between fork
// and exec, which has the test framework's handlers) and catches `signal` (Linux: the SigCgt mask
// of /proc/PID/status), so that a test's signal reaches the program's handler however loaded the
// machine is.
inline void wait_for_handler(pid_t pid, int signal) {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  fs::path proc = "/proc/" + std::to_string(pid);
  auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < std::chrono::seconds(60)) {
    if (fs::read_symlink(proc / "exe", ec) == self) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      continue;
    }
    std::ifstream status(proc / "status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("SigCgt:", 0) == 0 &&
          (std::stoull(line.substr(7), nullptr, 16) >> (signal - 1) & 1) != 0)
        return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

// Runs the tessera binary to its end (see start_tessera).
inline Run run_tessera(const std::vector<std::string>& args,
                       const std::vector<std::pair<std::string, std::string>>& env = {},
                       const std::vector<std::string>& unset = {}, void (*in_child)() = nullptr) {
  return start_tessera(args, env, unset, in_child).finish();
}

// A misuse of the command line: exit status 2, "error: " and the specific message on stderr.
inline void check_cli_error(const std::vector<std::string>& args, const std::string& message,
                            const std::vector<std::pair<std::string, std::string>>& env = {}) {
  Run r = run_tessera(args, env);
  std::string command = "tessera";
  for (const auto& a : args)
    command += " " + a;
  for (const auto& [k, v] : env)
    command = k + "=" + v + " " + command;
  CAPTURE(command);
  CAPTURE(r.err);
  CHECK(r.code == 2);
  CHECK(has(r.err, "error: "));
  CHECK(has(r.err, message));
  CHECK_FALSE(has(r.err, "internal error"));
  CHECK_FALSE(has(r.err, "terminate called"));
  CHECK_FALSE(has(r.err, "Sanitizer"));
  CHECK_FALSE(has(r.err, "runtime error"));
}

// An exploration report of j1d3pt at size 64 (written by the binary, once).
inline fs::path small_report() {
  static fs::path path = [] {
    fs::path p = temp_dir() / "j1d3pt-64.json";
    Run r = run_tessera({"explore", "j1d3pt", "--size", "64", "--depth", "0", "--budget", "20",
                         "--json", p.string(), "-q"},
                        {{"TESSERA_CACHE_DIR", (temp_dir() / "cli-cache").string()}});
    REQUIRE(r.code == 0);
    return p;
  }();
  return path;
}

} // namespace tessera::misuse
