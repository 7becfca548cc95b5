// The star and box stencils of radius 1-4 (stencils/StarBox.h) as program files, for
// `tessera explore --program` (bench/large_stencils.sh measures the large ones on a GPU):
//
//   ./build/bench/large_stencils DIR [NAME...]     (default: every star/box of radius 1-4)
//
// Each DIR/NAME.json is over size variables (N x N or N x N x N, clamped), so that --size picks
// the grid.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "core/Error.h"
#include "core/Json.h"
#include "stencils/StarBox.h"

using namespace tessera;
using stencils::Shape;

int main(int argc, char** argv) try {
  const char* usage = "usage: large_stencils DIR [NAME...] (names such as box3d4r, star2d1r)";
  if (argc < 2 || std::string(argv[1]).starts_with("-"))
    user_error(usage); // --help, or an option taken for the directory
  std::filesystem::path dir = argv[1];
  std::vector<std::string> wanted(argv + 2, argv + argc);
  struct Entry {
    int dims, radius;
    Shape shape;
    std::string name;
  };
  std::vector<Entry> family;
  for (int dims : {2, 3})
    for (Shape shape : {Shape::Star, Shape::Box})
      for (int r = 1; r <= 4; ++r)
        family.push_back({dims, r, shape, stencils::star_box_name(dims, r, shape)});
  auto named = [&](const std::string& name) {
    return std::any_of(family.begin(), family.end(),
                       [&](const Entry& e) { return e.name == name; });
  };
  // Every name is checked before anything is written.
  for (const std::string& name : wanted)
    if (!named(name))
      user_error(cat("no stencil named ", name, ": give names such as box3d4r or star2d1r"));
  std::filesystem::create_directories(dir);
  for (const Entry& e : family) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), e.name) == wanted.end())
      continue;
    std::vector<ArithExpr> extents(static_cast<std::size_t>(e.dims), size("N"));
    Expr program = stencils::star_box_stencil(extents, e.radius, e.shape, clamp);
    std::string path = (dir / (e.name + ".json")).string();
    save_expr_file(program, path);
    std::printf("%s %llu bytes\n", path.c_str(),
                static_cast<unsigned long long>(std::filesystem::file_size(path)));
  }
  return 0;
} catch (const tessera::Error& e) {
  std::fprintf(stderr, "large_stencils: %s\n", e.what());
  return 2;
}
