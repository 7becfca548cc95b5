// Mappings as data (rewrite/Mapping.h): their words, their JSON, the version-1 history steps they
// are read back from, and the traits by which rules tell the mapping stage what it needs.
#include <doctest/doctest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/Error.h"
#include "rewrite/Mapping.h"
#include "rewrite/Variants.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"

using namespace tessera;
using rewrite::Mapping;
using rewrite::MappingKind;

namespace {

Mapping make(MappingKind kind) {
  return Mapping{kind};
}

// One mapping of every kind, with the parameters its kind has.
std::vector<Mapping> every_kind() {
  Mapping wg = make(MappingKind::WorkGroups), local = make(MappingKind::LocalMemory),
          tiles = make(MappingKind::CoarsenedTiles), stream = make(MappingKind::Streaming),
          vector = make(MappingKind::Vectorized), coarse = make(MappingKind::Coarsened),
          constant = make(MappingKind::ConstantInput), image = make(MappingKind::ImageInput);
  wg.dims = 2;
  local.dims = 3;
  tiles.dims = 1;
  stream.dims = 3, stream.segment = 8, stream.factor = 2;
  vector.factor = 4;
  coarse.factor = 4, coarse.dim = 2, coarse.interleaved = true;
  constant.input = 1;
  image.input = 0, image.space = AddressSpace::ImageClampToEdge;
  return {make(MappingKind::Global),     wg, local, tiles, stream, vector, coarse, constant, image,
          make(MappingKind::SplitLaunch)};
}

const rewrite::Rule& rule_named(const std::vector<rewrite::Rule>& rules, const std::string& name) {
  auto it = std::find_if(rules.begin(), rules.end(), [&](const auto& r) { return r.name == name; });
  REQUIRE_MESSAGE(it != rules.end(), name);
  return *it;
}

} // namespace

TEST_CASE("mapping: words of every kind, and JSON that reads back the same") {
  std::vector<std::string> words;
  for (const auto& m : every_kind()) {
    words.push_back(rewrite::describe(m));
    nlohmann::json j = rewrite::mapping_to_json(m);
    CHECK(j["kind"] == rewrite::mapping_kind_name(m.kind));
    CHECK(rewrite::mapping_from_json(j, "m") == m);
  }
  CHECK(words == std::vector<std::string>{
                     "global", "work-groups", "work-groups, local memory", "coarsened", "streaming",
                     "vectorized, 4 results per work-item",
                     "coarsened 4x along dimension 2, interleaved", "input 1 in constant memory",
                     "input 0 as an image (clamp to edge)",
                     "global, the interior launched apart without boundary conditionals"});
  CHECK(rewrite::mapping_to_json(every_kind()[4]) ==
        nlohmann::json{{"kind", "streaming"}, {"dims", 3}, {"segment", 8}, {"factor", 2}});
}

TEST_CASE("mapping: version-1 history steps read back as the mapping they describe") {
  for (Mapping m : every_kind()) {
    if (m.kind == MappingKind::SplitLaunch)
      continue; // later than version 1
    // A version-1 step has the words only: dimensions and streaming shapes were not recorded.
    if (m.kind != MappingKind::Coarsened && m.kind != MappingKind::Vectorized)
      m.factor = 0;
    m.dims = 0, m.segment = 0;
    CAPTURE(rewrite::describe(m));
    auto back = rewrite::mapping_from_v1_step("mapping: " + rewrite::describe(m), "r.json");
    REQUIRE(back);
    CHECK(*back == m);
  }
  Mapping plain_coarse = make(MappingKind::Coarsened);
  plain_coarse.factor = 2;
  CHECK(rewrite::mapping_from_v1_step("mapping: coarsened 2x along dimension 0", "r") ==
        plain_coarse);
  CHECK_FALSE(rewrite::mapping_from_v1_step("tile-nd at [1] {dims=2, tile=16}", "r"));
  CHECK_THROWS_WITH_AS(rewrite::mapping_from_v1_step("mapping: coarsened 2x sideways", "r.json"),
                       "r.json: the version-1 history step \"mapping: coarsened 2x sideways\" "
                       "names no known mapping",
                       Error);
}

TEST_CASE("mapping: bad JSON is a clear error") {
  CHECK_THROWS_WITH_AS(rewrite::mapping_from_json(nlohmann::json{{"kind", "warp"}}, "p"),
                       doctest::Contains("p: unknown mapping kind \"warp\" (known: global, "),
                       Error);
  CHECK_THROWS_WITH_AS(rewrite::mapping_from_json(nlohmann::json::array(), "p"),
                       doctest::Contains("a mapping is an object with a \"kind\" string"), Error);
  CHECK_THROWS_WITH_AS(
      rewrite::mapping_from_json(nlohmann::json{{"kind", "work-groups"}, {"dims", -2}}, "p"),
      doctest::Contains("\"dims\" must be a non-negative integer, got -2"), Error);
  CHECK_THROWS_WITH_AS(
      rewrite::mapping_from_json(nlohmann::json{{"kind", "image-input"}, {"input", 0}}, "p"),
      doctest::Contains("needs \"space\""), Error);
}

TEST_CASE("mapping traits: rules declare what the mapping stage needs of their steps") {
  auto rules = rewrite::all_rules();
  CHECK(rule_named(rules, "tile-nd").mapping.tiled_dims({{"dims", 2}, {"tile", 16}}) == 2);
  CHECK(rule_named(rules, "temporal-tiling").mapping.tiled_dims({{"dims", 3}, {"steps", 2}}) == 3);
  CHECK(rule_named(rules, "split-join").mapping.tiled_dims({{"chunk", 4}}) == 1);
  CHECK_FALSE(rule_named(rules, "slide-tiling").mapping.tiled_dims);
  Mapping stream = make(MappingKind::Streaming);
  stream.dims = 3, stream.segment = 8;
  CHECK(rule_named(rules, "stream-nd").mapping.streaming({{"dims", 3}, {"segment", 8}}) == stream);
  std::vector<std::string> completing;
  for (const auto& r : rewrite::completing_rules()) {
    CHECK(r.mapping.completes);
    completing.push_back(r.name);
  }
  CHECK(completing ==
        std::vector<std::string>{"vectorize-4", "coarsen-nd", "place-constant", "place-image"});
  Mapping coarse = make(MappingKind::Coarsened);
  coarse.factor = 4, coarse.dim = 1;
  CHECK(rule_named(rules, "coarsen-nd").mapping.completes({{"dim", 1}, {"factor", 4}}) == coarse);
}

TEST_CASE("lowered variants record their mapping beside the rewrite steps") {
  Expr program = stencils::find_stencil("j2d5pt").build({16, 16});
  rewrite::EnumerateOptions options;
  options.depth = 1;
  options.tile_sizes = {4};
  auto lowered = rewrite::lowered_variants(program, options);
  REQUIRE(lowered.variants.size() > 4);
  CHECK(lowered.variants[0].history.empty());
  CHECK(lowered.variants[0].mapping == make(MappingKind::Global));
  int tiled = 0;
  for (const auto& v : lowered.variants) {
    REQUIRE(v.mapping);
    for (const auto& step : v.history)
      CHECK(step.rule.rfind("mapping", 0) == std::string::npos);
    if (v.mapping->kind == MappingKind::WorkGroups || v.mapping->kind == MappingKind::LocalMemory ||
        v.mapping->kind == MappingKind::CoarsenedTiles) {
      ++tiled;
      REQUIRE(v.history.size() == 1); // depth 1: the tiling step
      CHECK(v.mapping->dims ==
            (v.history[0].rule == "split-join" ? 1 : v.history[0].params.at("dims")));
    }
    // The JSON form of a variant reads back whole.
    rewrite::Variant back = rewrite::variant_from_json(rewrite::to_json(v));
    CHECK(back.history == v.history);
    CHECK(back.mapping == v.mapping);
    CHECK(back.after_mapping == v.after_mapping);
  }
  CHECK(tiled > 3);
}
