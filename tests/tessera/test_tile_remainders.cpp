// Tiles with a remainder (issue 33: j2d5pt had 51 variants at 64x64 and 26 at 64x61): where no
// tile size divides the extents, tile-nd, overlapped-tiling-nd and slide-tiling tile the grid
// padded up to a multiple of the tile (clamp) and drop the padding's results, one kernel whose
// stores at the edge are guarded (codegen: a Drop on the way out); vectorize-4 likewise pads the
// innermost level to a multiple of 4 lanes. Every variant at
// non-dividing sizes runs on PoCL against the interpreter; at dividing sizes the space is as it
// was (no padded tiles where exact ones exist).
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>

#include "compile/Agreement.h"
#include "stencils/Catalog.h"
#include "tessera/tessera.h"
#include "tests/Helpers.h"

using namespace tessera;

namespace {

Expr catalog_at(const std::string& name, const std::vector<int64_t>& shape) {
  return stencils::find_stencil(name).build(std::vector<ArithExpr>(shape.begin(), shape.end()));
}

bool padded(const VariantInfo& v) {
  return v.text.find("Drop(0,") != std::string::npos;
}

// A march with several results along x a step (stream-nd factor=c): offered only where c
// divides the rows, so not at 64x61.
bool march_blocked_along_x(const VariantInfo& v) {
  const std::string name = variant_name(v.history);
  return name.find("stream-nd") != std::string::npos && name.find("factor=") != std::string::npos;
}

} // namespace

// The extended tier (CMakeLists.txt), beside the walk of every offered variant at dividing and
// non-dividing sizes.
TEST_CASE("tiles with a remainder: every variant at sizes the tiles do not divide is exact" *
          doctest::test_suite("extended")) {
  auto device = open_device();
  struct Case {
    const char* name;
    std::vector<int64_t> shape;
  };
  std::map<std::string, int> families;
  int ran = 0, with_remainder = 0;
  for (const Case& c : {Case{"j2d5pt", {64, 61}}, Case{"gaussian", {29, 27}}, Case{"j1d3pt", {253}},
                        Case{"j3d7pt", {13, 11, 10}}}) {
    Expr p = catalog_at(c.name, c.shape);
    auto inputs = std::vector<Data>{testing::random_f32(c.shape, 17)};
    const std::vector<double> expected = evaluate(p, inputs).flatten();
    VariantList list = enumerate_variants(p, 1);
    for (const auto& v : list.variants) {
      INFO(c.name, ": ", v.text);
      codegen::KernelProgram kernels = emit_program(v);
      if (padded(v)) // the padding's results are not stored (one kernel)
        CHECK(kernels.launches.size() == 1);
      std::vector<double> got = run_kernel(device, kernels, inputs).flatten();
      CHECK(explore::within_tolerance(explore::max_relative_difference(got, expected)));
      ++families[variant_family(v.history)];
      with_remainder += padded(v);
      ++ran;
    }
  }
  MESSAGE(ran, " variants run, ", with_remainder, " with tiles with a remainder");
  CHECK(with_remainder > 20);
  for (const char* family : {"tiled", "local-memory", "work-groups", "coarsened", "vectorized"})
    CHECK(families[family] > 0);
}

TEST_CASE("tiles with a remainder: only where no tile divides, so 64x61 keeps every family") {
  VariantList square = enumerate_variants(catalog_at("j2d5pt", {64, 64}), 1);
  VariantList odd = enumerate_variants(catalog_at("j2d5pt", {64, 61}), 1);
  for (const auto& v : square.variants)
    CHECK_FALSE(padded(v));
  std::set<std::string> square_families, odd_families;
  for (const auto& v : square.variants)
    square_families.insert(variant_family(v.history));
  for (const auto& v : odd.variants)
    odd_families.insert(variant_family(v.history));
  CHECK(odd_families == square_families);
  MESSAGE("j2d5pt: ", square.variants.size(), " variants at 64x64, ", odd.variants.size(),
          " at 64x61");
  // Coarsening along the 61 columns takes a remainder too: the same variants, in one order,
  // but for the marches blocked along x.
  std::vector<std::string> square_names, odd_names;
  for (const auto& v : square.variants)
    if (!march_blocked_along_x(v))
      square_names.push_back(variant_name(v.history));
  for (const auto& v : odd.variants)
    odd_names.push_back(variant_name(v.history));
  CHECK(square_names.size() + 10 == square.variants.size()); // 5 segments x factors 2, 4
  CHECK(odd_names == square_names);
}
