// Running the tessera command line in-process (tools::run_cli) with stdout and stderr captured,
// for the tests of tests/tools.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "tests/Helpers.h"
#include "tests/TempDir.h"
#include "tools/Cli.h"

namespace tessera::testing {

struct Result {
  int code = 0;
  std::string out, err;
};

inline Result cli(std::vector<std::string> args) {
  args.insert(args.begin(), "tessera");
  std::vector<const char*> argv;
  for (const auto& a : args)
    argv.push_back(a.c_str());
  std::ostringstream out, err;
  auto* old_out = std::cout.rdbuf(out.rdbuf());
  auto* old_err = std::cerr.rdbuf(err.rdbuf());
  Result r;
  r.code = tools::run_cli(static_cast<int>(argv.size()), argv.data());
  std::cout.rdbuf(old_out);
  std::cerr.rdbuf(old_err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

// A fresh folder for a test's runs, whose kernels (and roofline, tuning database) go to the
// private cache folder in it: TESSERA_CACHE_DIR is set for the whole test program.
inline std::filesystem::path make_cli_dir(const std::string& prefix) {
  std::filesystem::path made = make_temp_dir(prefix);
  ::setenv("TESSERA_CACHE_DIR", (made / "cache").c_str(), 1);
  return made;
}

} // namespace tessera::testing
