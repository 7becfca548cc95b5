// Program files grow with the program (issue 32: a 729-point stencil's file was 5.9 MB where it
// was written pretty-printed): save_expr_file writes compact JSON, a few hundred bytes per point
// of a weighted sum, and reads it back the same.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "stencils/StarBox.h"
#include "tessera/tessera.h"
#include "tests/TempDir.h"

using namespace tessera;
using stencils::Shape;
namespace fs = std::filesystem;

TEST_CASE("program files: a box of 729 points is saved in under 500 bytes a point") {
  fs::path dir = testing::make_temp_dir("tessera-file-size");
  ArithExpr n = size("N");
  for (int r : {1, 4}) {
    Expr box = stencils::star_box_stencil({n, n, n}, r, Shape::Box, clamp);
    fs::path file = dir / cat("box", r, ".json");
    save_expr_file(box, file.string());
    const auto points = static_cast<std::uintmax_t>((2 * r + 1) * (2 * r + 1) * (2 * r + 1));
    CAPTURE(r);
    CHECK(fs::file_size(file) < 500 * points + 4000);
    CHECK(structurally_equal(load_expr_file(file.string()), box));
  }
  fs::remove_all(dir);
}

namespace {

// The deepest nesting of objects and arrays in a JSON document (iteratively: the point is that
// recursive readers choke on deep documents).
int nesting_depth(const nlohmann::json& root) {
  int deepest = 0;
  std::vector<std::pair<const nlohmann::json*, int>> pending{{&root, 1}};
  while (!pending.empty()) {
    auto [j, depth] = pending.back();
    pending.pop_back();
    if (!j->is_structured())
      continue;
    deepest = std::max(deepest, depth);
    for (const auto& child : *j)
      pending.push_back({&child, depth + 1});
  }
  return deepest;
}

} // namespace

TEST_CASE("program files: a long sum is one list of terms, not a chain 729 deep (Python's json "
          "reader and other recursive readers load it)") {
  fs::path dir = testing::make_temp_dir("tessera-file-depth");
  ArithExpr n = size("N");
  Expr box = stencils::star_box_stencil({n, n, n}, 4, Shape::Box, clamp);
  fs::path file = dir / "box4.json";
  save_expr_file(box, file.string());
  std::ifstream in(file);
  const int depth = nesting_depth(nlohmann::json::parse(in));
  CHECK(depth < 100); // Python's default recursion limit is 1000
  CHECK(structurally_equal(load_expr_file(file.string()), box));
  CHECK(print(load_expr_file(file.string())) == print(box)); // the same order of the terms
  fs::remove_all(dir);
}
