// Variant names (issue 33: `--variant K` meant another variant at 64x61 than at 64x64, numbers
// shift where a size has fewer variants): a variant's name is its derivation, the same at every
// size where it exists, and find_variant takes a number or a name.
#include <doctest/doctest.h>

#include <set>
#include <string>

#include "core/Error.h"
#include "stencils/Catalog.h"
#include "tessera/tessera.h"
#include "tests/Helpers.h"

using namespace tessera;

namespace {

VariantList j2d5pt_variants(int64_t rows, int64_t columns) {
  return enumerate_variants(
      stencils::find_stencil("j2d5pt").build({ArithExpr(rows), ArithExpr(columns)}), 1);
}

} // namespace

TEST_CASE("variant names: the same variant at every size where it exists, numbers shift") {
  // 61 rows: the split-join variants of rows need a chunk that divides them (64x61 has the
  // numbers of 64x64: every family takes a remainder along the columns).
  VariantList square = j2d5pt_variants(64, 64), odd = j2d5pt_variants(61, 61);
  int shifted = 0;
  for (std::size_t i = 0; i < odd.variants.size(); ++i) {
    const std::string name = variant_name(odd.variants[i].history);
    INFO(name);
    // Every variant at 61x61 has a namesake at 64x64: the same rewrite steps and mapping.
    std::size_t there = find_variant(square, name, "j2d5pt", 1);
    CHECK(variant_name(square.variants[there].history) == name);
    CHECK(variant_family(square.variants[there].history) ==
          variant_family(odd.variants[i].history));
    shifted += there != i;
  }
  CHECK(shifted > 0);
  // The coarsened variant of tiles of 16: number 26 at 64x64, 18 at 61x61.
  const std::string tiles16 = "tile-nd at [1] {dims=2, tile=16}; mapping: coarsened";
  CHECK(find_variant(square, tiles16, "j2d5pt", 1) != find_variant(odd, tiles16, "j2d5pt", 1));
}

TEST_CASE("variant names: what tessera variants prints around a name is ignored; numbers work") {
  VariantList odd = j2d5pt_variants(61, 61);
  CHECK(find_variant(odd, "0", "j2d5pt", 1) == 0);
  CHECK(find_variant(odd, "mapping: global", "j2d5pt", 1) == 0);
  CHECK(find_variant(odd, "[plain] mapping: global (the plain MapGlb lowering: the baseline)",
                     "j2d5pt", 1) == 0);
  const std::size_t k =
      find_variant(odd, "tile-nd at [1] {dims=2, tile=4}; mapping: work-groups", "j2d5pt", 1);
  CHECK(find_variant(odd, "  [tiled]  tile-nd at [1] {dims=2, tile=4};   mapping: work-groups ",
                     "j2d5pt", 1) == k);
  CHECK(find_variant(odd, std::to_string(k), "j2d5pt", 1) == k);
  const std::string chunks = "split-join at [1] {chunk=4}; mapping: work-groups";
  const std::string wrong = testing::error_of([&] { find_variant(odd, chunks, "j2d5pt", 1); });
  CHECK(wrong.find("no variant named '" + chunks + "' here") != std::string::npos);
  CHECK(wrong.find("j2d5pt has 38 variants at depth 1") != std::string::npos);
  CHECK(wrong.find("absent work-groups: ") != std::string::npos);
  CHECK(testing::error_of([&] {
          find_variant(odd, "38", "j2d5pt", 1);
        }).find("no variant 38: j2d5pt has 38 variants") != std::string::npos);
}

TEST_CASE("variant names: unique among a catalog stencil's variants at depth 1") {
  for (const auto& info : stencils::catalog()) {
    for (int64_t side : {16, 14, 13}) {
      std::vector<ArithExpr> extents(static_cast<std::size_t>(info.dims), ArithExpr(side));
      if (info.dims == 1)
        extents = {ArithExpr(side * 16)};
      Expr program;
      try {
        program = info.build(extents);
      } catch (const Error&) { // restrict3d needs an even side
        continue;
      }
      VariantList list = enumerate_variants(program, 1);
      std::set<std::string> names;
      for (const auto& v : list.variants)
        names.insert(variant_name(v.history));
      INFO(info.name, " at side ", side);
      CHECK(names.size() == list.variants.size());
    }
  }
}
