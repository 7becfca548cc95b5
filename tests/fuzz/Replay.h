// Replays a ReproducerCase with `tessera_fuzz --replay` in a child process under `timeout`, for
// tests/fuzz/test_regressions.cpp and tests/fuzz/test_known_bugs.cpp.
#pragma once

#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "codegen/Kernel.h"
#include "compile/Execute.h"
#include "core/Error.h"
#include "core/RandomData.h"
#include "dsl/Dsl.h"
#include "primitives/Interpreter.h"
#include "runtime/Session.h"
#include "tests/fuzz/Reproducers.h"

namespace tessera::fuzz::testing {

struct Replay {
  int status = -1; // exit status, or 128 + signal
  std::string output;
  bool passed() const { return status == 0 && output.find("\nPASSED") != std::string::npos; }
  bool rejected() const { return status == 0 && output.find("\nREJECTED") != std::string::npos; }
};

inline Replay run_replay(const ReproducerCase& c, int timeout_s = 20) {
  namespace fs = std::filesystem;
  static int counter = 0;
  fs::path dir = fs::temp_directory_path() /
                 ("tessera-replay-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  fs::create_directories(dir);
  fs::path file = dir / c.file;
  {
    std::ofstream out(file);
    out << case_reproducer(c).dump(2) << "\n";
  }
  Replay r;
  std::string command = "timeout " + std::to_string(timeout_s) + " " + TESSERA_FUZZ_PATH +
                        " --replay " + file.string() + " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe)
    throw std::runtime_error("popen failed");
  std::array<char, 4096> buffer{};
  std::size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    r.output.append(buffer.data(), n);
  int raw = ::pclose(pipe);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + (WIFSIGNALED(raw) ? WTERMSIG(raw) : 0);
  std::error_code ec;
  fs::remove_all(dir, ec);
  return r;
}

// Replays the case and checks its expected outcome.
inline void check_replay(const ReproducerCase& c) {
  Replay r = run_replay(c);
  INFO(c.description);
  INFO("reproducer (DSL):\n" << c.dsl);
  INFO("tessera_fuzz --replay (exit status " << r.status << "):\n" << r.output);
  if (c.expect == "REJECTED") {
    CHECK(r.rejected());
    CHECK(r.output.find(c.expect_message) != std::string::npos);
  } else {
    CHECK(r.passed());
  }
}

inline const ReproducerCase& find_case(const std::vector<ReproducerCase>& cases,
                                       const std::string& name) {
  for (const auto& c : cases)
    if (c.name == name)
      return c;
  throw std::logic_error("no reproducer case named " + name);
}

// The session of the in-process checks (PoCL, no disk cache).
inline runtime::Session& names_session() {
  static runtime::Session session(runtime::select_device_from_env(""), "");
  return session;
}

// Runs `program` on the device; returns "" when the kernel matches the interpreter, else why not.
inline std::string kernel_problem(const Expr& program) {
  try {
    auto inputs = random_inputs(program, 1);
    Data expected = evaluate(program, inputs);
    auto kernel = codegen::generate_kernel(program);
    auto run = explore::execute(names_session(), kernel, inputs);
    double err = explore::max_relative_error(run.output, expected);
    return err <= 1e-5 ? "" : "the kernel's result differs from the interpreter's";
  } catch (const Error& e) {
    return e.what();
  }
}

// Which of `names` break a kernel as user function names (each name one function of a chain) or
// as input names (each name an input, weighted by its position, so that two inputs confused
// change the sum): all names in one kernel first, then one kernel per name only when that one
// fails, to name the culprits.
inline std::string names_that_break(const std::vector<std::string>& names, bool as_inputs) {
  auto program_of = [&](const std::vector<std::string>& some) {
    if (as_inputs) {
      std::vector<Val> xs;
      for (const auto& n : some)
        xs.push_back(input(n, Type::array(f32(), 8)));
      Fun sum = user_fun("sum", static_cast<int>(some.size()), [](const std::vector<Sym>& v) {
        Sym s = v[0] * 0.5;
        for (std::size_t i = 1; i < v.size(); ++i)
          s = s + v[i] * static_cast<double>(i + 1);
        return s;
      });
      if (xs.size() == 1)
        return program(xs, xs[0] | map_glb(0, sum));
      Fun unpacked([sum, n = xs.size()](Val t) {
        std::vector<Val> parts;
        for (std::size_t i = 0; i < n; ++i)
          parts.push_back(t.get(static_cast<int>(i)));
        return sum.apply(parts);
      });
      return program(xs, zip(xs) | map_glb(0, unpacked));
    }
    Val x = input("x", Type::array(f32(), 8));
    Fun chain = user_fun(some.at(0), [](auto a) { return a * 0.5 + 1.0; });
    for (std::size_t i = 1; i < some.size(); ++i)
      chain = chain >> user_fun(some[i], [](auto a) { return a * 0.5 + 1.0; });
    return program({x}, x | map_glb(0, chain));
  };
  std::string together = kernel_problem(program_of(names)), bad;
  if (together.empty())
    return bad;
  for (const auto& n : names)
    if (!kernel_problem(program_of({n})).empty())
      bad += (bad.empty() ? "" : " ") + n;
  return bad.empty() ? "all of them together: " + together : bad;
}

} // namespace tessera::fuzz::testing
