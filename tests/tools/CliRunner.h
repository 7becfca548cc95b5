// Running the tessera command line in-process (tools::run_cli) with stdout and stderr captured,
// for the tests of tests/tools.
#pragma once

#include <iostream>
#include <sstream>
#include <string>
#include <vector>

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

inline bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

} // namespace tessera::testing
