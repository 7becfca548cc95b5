// A temporary directory for one test program, removed when the program exits.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::testing {

// Creates <tmp>/<prefix>-XXXXXX; every directory made here is removed at exit.
inline std::filesystem::path make_temp_dir(const std::string& prefix) {
  namespace fs = std::filesystem;
  std::string pattern = (fs::temp_directory_path() / (prefix + "-XXXXXX")).string();
  if (!::mkdtemp(pattern.data()))
    throw std::runtime_error("mkdtemp failed for " + pattern);
  static struct Cleanup {
    std::vector<fs::path> dirs;
    ~Cleanup() {
      for (const auto& d : dirs) {
        std::error_code ec;
        fs::remove_all(d, ec);
      }
    }
  } cleanup;
  cleanup.dirs.push_back(pattern);
  return pattern;
}

} // namespace tessera::testing
