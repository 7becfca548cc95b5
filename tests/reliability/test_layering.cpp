// The layers of docs/architecture.md, checked on the sources: a file of a library folder may
// include its own folder and the folders below it, never one above it or beside it. CMake links
// each library only to those below (an upward call fails to link); this check also catches an
// upward #include of a header-only declaration, and names the file and line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "tests/Helpers.h"

namespace {

namespace fs = std::filesystem;

// Each library folder and the folders directly below it (docs/architecture.md).
const std::map<std::string, std::vector<std::string>>& layers() {
  static const std::map<std::string, std::vector<std::string>> direct{
      {"core", {}},
      {"primitives", {"core"}},
      {"dsl", {"primitives"}},
      {"rewrite", {"primitives"}},
      {"codegen", {"primitives"}},
      {"runtime", {"core"}},
      {"compile", {"dsl", "rewrite", "codegen", "runtime"}},
      {"explore", {"compile"}},
      {"stencils", {"explore"}},
      {"multigrid", {"explore"}},
      {"distributed", {"stencils", "multigrid"}},
      {"tessera", {"distributed", "stencils", "multigrid"}},
      {"tools", {"tessera"}},
  };
  return direct;
}

// The folders `folder` may include: itself and everything below it.
std::set<std::string> allowed(const std::string& folder) {
  std::set<std::string> seen{folder};
  std::vector<std::string> todo{folder};
  while (!todo.empty()) {
    std::string f = todo.back();
    todo.pop_back();
    for (const auto& below : layers().at(f))
      if (seen.insert(below).second)
        todo.push_back(below);
  }
  return seen;
}

// The upward or sideways includes of one file of `folder`, as "name:line: #include ...".
// `folders` are the source root's top-level folders: an include of another one (a library above,
// or tests/, bench/) is a violation; quoted includes of anything else are not ours.
std::vector<std::string> bad_includes(const std::string& folder, const std::string& name,
                                      const std::string& text,
                                      const std::set<std::string>& folders) {
  static const std::regex include(R"(^\s*#\s*include\s*"([A-Za-z0-9_]+)/)");
  std::set<std::string> ok = allowed(folder);
  std::vector<std::string> bad;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::smatch m;
    if (std::regex_search(line, m, include) && folders.count(m[1]) && !ok.count(m[1]))
      bad.push_back(name + ":" + std::to_string(number) + ": " + line);
  }
  return bad;
}

std::set<std::string> top_level_folders(const fs::path& root) {
  std::set<std::string> folders;
  for (const auto& entry : fs::directory_iterator(root))
    if (entry.is_directory())
      folders.insert(entry.path().filename().string());
  return folders;
}

} // namespace

TEST_CASE("the layering check finds an upward include and allows downward ones") {
  std::set<std::string> folders{"core", "primitives", "rewrite", "codegen", "explore", "tests"};
  std::string text = "#include <vector>\n#include \"core/Expr.h\"\n#include \"rewrite/Rule.h\"\n"
                     "  #  include \"codegen/Program.h\"\n#include \"nlohmann/json.hpp\"\n";
  auto bad = bad_includes("rewrite", "rewrite/Variants.cpp", text, folders);
  REQUIRE(bad.size() == 1);
  CHECK(bad[0] == "rewrite/Variants.cpp:4:   #  include \"codegen/Program.h\"");
  CHECK(bad_includes("explore", "explore/X.cpp", text, folders).empty());
  CHECK(
      bad_includes("core", "core/X.h", "#include \"tests/fuzz/FuzzProgram.h\"\n", folders).size() ==
      1);
}

TEST_CASE("the OpenCL runtime may include only core") {
  std::set<std::string> folders{"core", "primitives", "codegen", "runtime", "explore"};
  std::string text = "#include \"core/Error.h\"\n#include \"runtime/Device.h\"\n"
                     "#include \"primitives/Dispatch.h\"\n#include \"explore/Space.h\"\n";
  auto bad = bad_includes("runtime", "runtime/X.cpp", text, folders);
  REQUIRE(bad.size() == 2);
  CHECK(bad[0] == "runtime/X.cpp:3: #include \"primitives/Dispatch.h\"");
  CHECK(bad[1] == "runtime/X.cpp:4: #include \"explore/Space.h\"");
  CHECK(bad_includes("explore", "explore/X.cpp", text, folders).empty());
}

TEST_CASE("the bridge to a runnable kernel includes neither the explorer nor the catalog") {
  std::set<std::string> folders{"core", "runtime", "codegen", "compile", "explore", "stencils"};
  std::string text = "#include \"runtime/Session.h\"\n#include \"codegen/Program.h\"\n"
                     "#include \"explore/Space.h\"\n#include \"stencils/Catalog.h\"\n";
  auto bad = bad_includes("compile", "compile/X.cpp", text, folders);
  REQUIRE(bad.size() == 2);
  CHECK(bad[0] == "compile/X.cpp:3: #include \"explore/Space.h\"");
  CHECK(bad[1] == "compile/X.cpp:4: #include \"stencils/Catalog.h\"");
  CHECK(bad_includes("explore", "explore/X.cpp", "#include \"compile/Execute.h\"\n", folders)
            .empty());
}

TEST_CASE("no library source includes a folder above or beside its own") {
  const fs::path root = TESSERA_SOURCE_DIR;
  const auto folders = top_level_folders(root);
  // Every library of CMakeLists.txt has its place in the layers.
  std::string cmake = tessera::testing::read_text_file(root / "CMakeLists.txt");
  static const std::regex library(R"(tessera_library\(tessera_\w+\s+(\w+))");
  for (auto it = std::sregex_iterator(cmake.begin(), cmake.end(), library);
       it != std::sregex_iterator(); ++it) {
    INFO("library folder ", (*it)[1].str());
    CHECK(layers().count((*it)[1].str()) == 1);
  }
  std::vector<std::string> bad;
  std::size_t files = 0;
  for (const auto& [folder, below] : layers()) {
    if (!fs::exists(root / folder))
      continue;
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      auto ext = entry.path().extension();
      if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".h"))
        continue;
      ++files;
      auto found = bad_includes(folder, fs::relative(entry.path(), root).string(),
                                tessera::testing::read_text_file(entry.path()), folders);
      bad.insert(bad.end(), found.begin(), found.end());
    }
  }
  CHECK(files > 100);
  for (const auto& b : bad)
    FAIL_CHECK("upward include: ", b);
}

// explore/Problem.h holds the problem, explore/ExploreOptions.h the options: the explorer, its
// evaluator and the point measurer include them, and one another in one direction only.
TEST_CASE("the explorer's headers include one another in one direction") {
  const fs::path root = TESSERA_SOURCE_DIR;
  auto includes = [&](const std::string& header, const std::string& other) {
    return tessera::testing::read_text_file(root / "explore" / header)
               .find("#include \"explore/" + other + "\"") != std::string::npos;
  };
  for (const char* h : {"DeviceEvaluator.h", "PointMeasurer.h", "Problem.h", "ExploreOptions.h"}) {
    INFO(h);
    CHECK_FALSE(includes(h, "Explorer.h"));
  }
  CHECK_FALSE(includes("Explorer.h", "DeviceEvaluator.h"));
  CHECK_FALSE(includes("Explorer.h", "PointMeasurer.h"));
  CHECK_FALSE(includes("PointMeasurer.h", "DeviceEvaluator.h"));
  CHECK(includes("Explorer.h", "Problem.h"));
}

// The target model (core/Target.h) is one plain value that every layer reads: it includes no
// header of the project (and none of OpenCL); a device's target is made in runtime/ only.
TEST_CASE("the target model is a plain value, made from a device in the runtime") {
  const fs::path root = TESSERA_SOURCE_DIR;
  std::string target = tessera::testing::read_text_file(root / "core" / "Target.h");
  CHECK(target.find("#include \"") == std::string::npos);
  CHECK(target.find("CL/") == std::string::npos);
  std::string made = tessera::testing::read_text_file(root / "runtime" / "DeviceTarget.h");
  CHECK(made.find("#include \"core/Target.h\"") != std::string::npos);
  // No other place reads the device's type to decide a limit.
  std::vector<std::string> readers;
  for (const char* folder : {"rewrite", "codegen", "compile", "explore"})
    for (const auto& entry : fs::recursive_directory_iterator(root / folder))
      if (entry.is_regular_file() &&
          tessera::testing::read_text_file(entry.path()).find("type == \"CPU\"") !=
              std::string::npos)
        readers.push_back(fs::relative(entry.path(), root).string());
  CHECK(readers.empty());
}
