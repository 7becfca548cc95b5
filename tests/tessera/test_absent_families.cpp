// The space says why a family is absent at a size (issue 33: 64x61 silently lost the tiled,
// local-memory and vectorized variants that 64x64 has; tiles and vector lanes with a remainder
// now keep them all).
#include <doctest/doctest.h>

#include <string>

#include "stencils/Catalog.h"
#include "tessera/tessera.h"
#include "tests/Helpers.h"

using namespace tessera;
using tessera::testing::has;

namespace {

Expr j2d5pt_at(int64_t rows, int64_t columns) {
  return stencils::find_stencil("j2d5pt").build({ArithExpr(rows), ArithExpr(columns)});
}

std::string line_of(const std::vector<std::string>& lines, const std::string& family) {
  for (const auto& line : lines)
    if (line.rfind(family + ": ", 0) == 0)
      return line;
  return "";
}

} // namespace

TEST_CASE("absent families: an odd extent says which family it removes and why") {
  VariantList square = enumerate_variants(j2d5pt_at(64, 64), 1);
  VariantList odd = enumerate_variants(j2d5pt_at(64, 61), 1);
  // Every family takes a remainder; only the marches with 2 or 4 results along x (5 segment
  // lengths each) need the rows to divide.
  CHECK(odd.variants.size() + 10 == square.variants.size());
  CHECK(line_of(square.absent, "local-memory").empty());
  CHECK(line_of(square.absent, "vectorized").empty());

  // Tiles and vector lanes with a remainder keep the tiled and vectorized families at 61
  // (test_tile_remainders.cpp); an extent below 4 has no vector lanes.
  CHECK(line_of(odd.absent, "local-memory").empty());
  CHECK(line_of(odd.absent, "tiled").empty());
  CHECK(line_of(odd.absent, "vectorized").empty());
  // An extent below every tile size: no tiles of two dimensions, and the tilings say why.
  VariantList thin = enumerate_variants(j2d5pt_at(64, 3), 1);
  CHECK(has(line_of(thin.absent, "local-memory"),
            "tile-nd: extent 3 is not larger than any tile size {4, 8, 16, 32, 64}"));
  CHECK(has(line_of(thin.absent, "vectorized"), "the innermost length 3 is less than 4"));
  // One step: the families that fuse steps say so.
  CHECK(has(line_of(odd.absent, "temporal"), "a single stencil step"));
  for (const auto& v : odd.variants)
    CHECK(line_of(odd.absent, variant_family(v.history)).empty()); // present: not listed

  // The explorer's problem carries them into the report's enumeration line.
  auto problem = make_problem("j2d5pt", j2d5pt_at(64, 3), {64, 3}, 1);
  CHECK(has(problem.enumeration, "absent local-memory: "));
}

TEST_CASE("absent families: a family whose candidates the device limits refuse says why") {
  // A radius-4 star at 64^3: its local-memory tiles (4^3 plus a halo of 4: 12^3 work-items, or
  // 16^3 plus the halo: 55296 bytes of local memory) exceed the portable limits, and the family
  // said "no rule of the family applies" before.
  Val x = input("x", array_of(f32(), {64, 64, 64}));
  std::vector<double> w(729, 0.0);
  for (int k = 0; k < 729; ++k) {
    int i = k % 9, j = k / 9 % 9, l = k / 81;
    if ((i != 4) + (j != 4) + (l != 4) <= 1)
      w[static_cast<std::size_t>(k)] = 1 + k % 5;
  }
  Expr star = program({x}, x | pad_nd(3, 4, 4, clamp) | slide_nd(3, 9, 1) |
                               map_nd(3, [w](Val n) { return weighted_sum(n, w).named("star"); }));
  VariantList list = enumerate_variants(star, 1);
  std::string local = line_of(list.absent, "local-memory");
  CHECK(has(local, "every candidate was refused ("));
  CHECK(has(local, "the portable limit without a device"));
  // Every refused candidate is counted under its reason.
  REQUIRE_FALSE(list.rejected.empty());
  for (const auto& line : list.rejected)
    CHECK(has(line, " candidate"));
}

TEST_CASE("absent families: the split launch is offered where the plain lowering splits") {
  VariantList list = enumerate_variants(j2d5pt_at(64, 61), 1);
  CHECK(line_of(list.absent, "split-launch").empty());
  const auto& split = list.variants.back(); // last: the others' numbers do not depend on it
  CHECK(variant_family(split.history) == "split-launch");
  CHECK(split.text == list.variants[0].text); // the default lowering, launched in parts
  CHECK(explore::generate_variant(split, {}).launches.size() == 5);
  // A program without a boundary has no interior to launch apart: the reason is the generator's.
  Val x = input("x", array_of(f32(), {64}));
  auto sum3 = user_fun("sum3", [](auto a, auto b, auto c) { return a + b + c; });
  Expr valid =
      program({x}, x | slide(3, 1) | map([=](Val w) { return sum3(w.at(0), w.at(1), w.at(2)); }));
  VariantList none = enumerate_variants(valid, 1);
  CHECK(has(line_of(none.absent, "split-launch"), "no interior version"));
  for (const auto& v : none.variants)
    CHECK(variant_family(v.history) != "split-launch");
}
