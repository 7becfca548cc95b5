// A variant's family comes from what its rules declare (rewrite::Rule::family) and from its
// mapping: the explorer names no rule.
#include <doctest/doctest.h>

#include <set>

#include "explore/Family.h"
#include "rewrite/rules/Rules.h"

using namespace tessera;
using explore::Derivation;
using explore::variant_family;
using rewrite::Mapping;
using rewrite::MappingKind;

namespace {
Derivation derivation(const std::vector<std::string>& steps,
                      std::optional<Mapping> mapping = std::nullopt) {
  return {explore::parse_steps(steps, "a test's derivation"), mapping};
}
} // namespace

TEST_CASE("a variant's family is the one its rules declare, in order of precedence") {
  CHECK(variant_family(derivation({"tile-nd at [1] {dims=2, tile=16}"})) == "tiled");
  CHECK(variant_family(derivation({"stream-nd at [1] {dims=3}"})) == "streaming");
  CHECK(variant_family(derivation({"coarsen-nd at [] {dim=0, factor=2}"})) == "coarsened");
  CHECK(variant_family(derivation({"diamond-tiling at [1] {steps=2}"})) == "diamond");
  // temporal comes before tiled, whichever step comes first.
  CHECK(variant_family(derivation({"tile-nd at [1] {dims=2, tile=16}",
                                   "temporal-tiling at [1,1] {steps=2}"})) == "temporal");
  // A rule that declares no family, or none known: the mapping decides, or plain.
  CHECK(variant_family(derivation({"map-fusion at [1]"})) == "plain");
  CHECK(variant_family(derivation({"no-such-rule at []"})) == "plain");
  CHECK(variant_family(derivation({"split-join at [1] {chunk=4}"},
                                  Mapping{MappingKind::WorkGroups})) == "work-groups");
  CHECK(variant_family(derivation({"split-join at [1] {chunk=4}"},
                                  Mapping{MappingKind::LocalMemory})) == "local-memory");
}

TEST_CASE("every family but plain, work-groups and split-launch is declared by a rule") {
  std::set<std::string> declared;
  for (const auto& list :
       {rewrite::all_rules(), rewrite::completing_rules(), {rewrite::separate_axes_rule()}})
    for (const auto& r : list) {
      CHECK(rewrite::rule_family(r.name) == r.family);
      if (!r.family.empty())
        declared.insert(r.family);
    }
  for (const auto& family : explore::variant_families())
    if (family != "plain" && family != "work-groups" && family != "split-launch")
      CHECK_MESSAGE(declared.count(family), family << " is declared by no rule");
  CHECK(rewrite::rule_family("tile-nd") == "tiled");
  CHECK(rewrite::rule_family("map-glb").empty());
}
