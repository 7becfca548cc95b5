// Replaying a typed history: a step's parameters are read through its rule's declaration
// (Rule::params), so a step whose parameters do not match it is refused with an Error naming the
// rule and the parameter, and the histories the enumerator records for catalog stencils (single
// and iterated, with the temporal rules) replay to the same program from a context that holds
// only the tile sizes.
#include <doctest/doctest.h>

#include <set>

#include "core/Error.h"
#include "rewrite/Enumerate.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "stencils/Iterated.h"
#include "tests/error/ErrorCheck.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

// Every variant's history replays to its program; returns how many steps were replayed.
// `tile_sizes`: whether the replaying context holds the enumerator's tile sizes.
int check_replays(const Expr& program, int depth, bool tile_sizes = true) {
  EnumerateOptions options;
  options.depth = depth;
  options.limit = 400;
  auto e = enumerate(program, all_rules(), options);
  RuleContext ctx; // no coarsening factors or step counts: the declarations add them
  if (tile_sizes)
    ctx.tile_sizes = options.tile_sizes;
  int steps = 0;
  for (const auto& v : e.variants) {
    // variants[0] is the program as the enumerator normalised it: histories start there.
    Expr replayed = replay(e.variants.front().program, v.history, all_rules(), ctx);
    CHECK_MESSAGE(structurally_equal(replayed, v.program), "history of ", v.history.size());
    steps += static_cast<int>(v.history.size());
  }
  return steps;
}

} // namespace

TEST_CASE("histories of catalog stencils replay to the same program") {
  CHECK(check_replays(stencils::find_stencil("j2d5pt").build({16, 16}), 2) > 100);
  CHECK(check_replays(stencils::find_stencil("j3d7pt").build({16, 16, 16}), 1) > 10);
  // Temporal tiling, streaming over time and time tiling: steps, tiles and segments.
  Expr iterated = stencils::iterated_stencil("j2d5pt", {64, 64}, 3);
  auto e = enumerate(iterated, all_rules(), EnumerateOptions{.depth = 1});
  std::set<std::string> rules;
  for (const auto& v : e.variants)
    for (const auto& s : v.history)
      rules.insert(s.rule);
  for (const char* name : {"temporal-tiling", "stream-temporal", "diamond-tiling"})
    CHECK_MESSAGE(rules.count(name), name);
  CHECK(check_replays(iterated, 1) > 10);
}

TEST_CASE("histories of the temporal rules replay from a context without tile sizes") {
  // The tiles of stream-temporal (4x a candidate in 2-D) and of diamond and parallelogram
  // tiling (16x in 1-D) are declared as multiples of a candidate size: replay adds it.
  CHECK(check_replays(stencils::iterated_stencil("j2d5pt", {64, 64}, 3), 1, false) > 10);
  CHECK(check_replays(stencils::iterated_stencil("j3d7pt", {16, 16, 16}, 2), 1, false) > 10);
  CHECK(check_replays(stencils::iterated_stencil("j1d3pt", {256}, 3), 1, false) > 10);
}

TEST_CASE("a history step whose parameters do not match its rule's declaration is refused") {
  Expr program = stencils::find_stencil("j2d5pt").build({16, 16});
  const auto rules = all_rules();
  auto replay_one = [&](Step step) { return replay(program, {step}, rules, RuleContext{}); };
  // Unknown parameter (tile-nd declares dims and tile).
  CHECK_ERROR(replay_one({"tile-nd", {}, {{"dims", 2}, {"tile", 4}, {"size", 4}}}),
              "replay: step 1", "tile-nd", "no parameter \"size\"");
  // Missing parameter.
  CHECK_ERROR(replay_one({"tile-nd", {}, {{"dims", 2}}}), "tile-nd",
              "the parameter \"tile\" is required");
  // Outside a fixed domain (tile-nd tiles 2 or 3 dimensions) and a negative count.
  CHECK_ERROR(replay_one({"tile-nd", {}, {{"dims", 5}, {"tile", 4}}}), "tile-nd",
              "dims=5 is outside its domain");
  CHECK_ERROR(replay_one({"stage-local", {}, {{"levels", -1}}}), "stage-local",
              "levels=-1 is outside its domain");
  // A rule that declares no parameters.
  CHECK_ERROR(replay_one({"map-fusion", {}, {{"chunk", 4}}}), "map-fusion",
              "declares no parameters", "\"chunk\"");
  // An unknown rule, and a well-formed step that does not apply where it points.
  CHECK_ERROR(replay_one({"no-such-rule", {}, {}}), "unknown rule 'no-such-rule'");
  CHECK_ERROR(replay_one({"tile-nd", {}, {{"dims", 2}, {"tile", 4}}}), "tile-nd", "does not apply");
}
