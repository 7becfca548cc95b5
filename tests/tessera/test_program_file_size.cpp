// Program files grow with the program (issue 32: a 729-point stencil's file was 5.9 MB where it
// was written pretty-printed): save_expr_file writes compact JSON, a few hundred bytes per point
// of a weighted sum, and reads it back the same.
#include <doctest/doctest.h>

#include <filesystem>

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
