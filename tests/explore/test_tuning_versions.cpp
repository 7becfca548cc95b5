// The tuning database of version 2 (points keyed by their derivation's words), as an older
// tessera left it (tests/explore/data/tuning-v2.json), read as version 3: every point's key is
// the structured key (variant_key) of the variant it was measured for.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "../TempDir.h"
#include "dsl/Dsl.h"
#include "explore/Features.h"
#include "explore/TuningDatabase.h"
#include "explore/Variants.h"

using namespace tessera;
using namespace tessera::explore;

namespace {

// A 5-point Jacobi step on a 64x64 grid, clamped (the catalog's j2d5pt, which the file's points
// were measured for).
Expr jacobi_5pt() {
  auto jacobi5 = user_fun(
      "jacobi5", [](auto n, auto w, auto c, auto e, auto s) { return (n + w + c + e + s) / 5.0f; });
  Fun at_window([=](Val w) {
    return jacobi5(w.at(0).at(1), w.at(1).at(0), w.at(1).at(1), w.at(1).at(2), w.at(2).at(1));
  });
  Val x = input("x", Type::array(Type::array(f32(), 64), 64));
  return program({x}, x | pad_nd(2, 1, 1, clamp) | slide_nd(2, 3, 1) | map_nd(2, at_window));
}

} // namespace

TEST_CASE("tuning database: a version-2 file's points read with the keys of their variants") {
  auto dir = tessera::testing::make_temp_dir("tessera-tuning-v2");
  auto path = dir / "tuning.json";
  std::filesystem::copy_file(std::string(TESSERA_SOURCE_DIR) + "/tests/explore/data/tuning-v2.json",
                             path);
  nlohmann::json db = read_tuning_file(path);
  CHECK(db["version"] == 3);
  CHECK(db["entries"]["j2d5pt"]["variant"] == 12); // the solver's entries kept
  // The point whose signature does not read ("chunk=four") is dropped, the others kept.
  auto points = read_tuned_points(path, "d");
  REQUIRE(points.size() == 6);
  std::set<std::string> keys;
  for (const auto& v : enumerate_variants(jacobi_5pt(), 1).variants)
    keys.insert(variant_signature(v.history));
  for (const auto& p : points) {
    CHECK_MESSAGE(keys.count(p.signature) == 1, p.signature);
    CHECK(nlohmann::json::parse(p.signature).contains("steps"));
  }
  CHECK(points[4].signature ==
        variant_signature({{{"split-join", {1}, {{"chunk", 4}}}},
                           rewrite::Mapping{rewrite::MappingKind::WorkGroups, 1}}));
  CHECK(points[0].words == std::vector<std::string>{"family:plain"});
  // Recorded again, the file is version 3 with the keys as JSON objects.
  record_tuned_points(path, {points[1]});
  nlohmann::json written = read_tuning_file(path);
  CHECK(written["version"] == 3);
  REQUIRE(written["points"].size() == 6);
  for (const auto& p : written["points"])
    CHECK(p["signature"].is_object());
}
