// A variant's derivation as the explorer records it, in its variants (VariantInfo), reports and
// exported kernels: the rewrite steps in words, the mapping that made it executable (typed data,
// rewrite/Mapping.h) and the rules applied to the mapped program.
//
// JSON: the fields "history" (the steps), "mapping" (an object, absent for a program explored as
// written) and "after_mapping" (absent when empty) of the object that holds the derivation.
// Version-1 files had the mapping as a step "mapping: <text>" in "history", with the steps after
// it; derivation_from_json converts them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rewrite/Mapping.h"

namespace tessera::explore {

struct Derivation {
  std::vector<std::string> steps;          // "tile-nd at [1] {dims=2, tile=16}", in order
  std::optional<rewrite::Mapping> mapping; // none: the program as written (already lowered)
  std::vector<std::string> after_mapping;  // "glb-order at [] {level0=1, level1=0}"

  // The rule steps before and after the mapping.
  std::vector<std::string> rule_steps() const;
  // Every step for display, the mapping as "mapping: work-groups, local memory".
  std::vector<std::string> lines() const;
  bool operator==(const Derivation&) const = default;
};

// The rule of a step in words: "tile-nd" of "tile-nd at [1] {dims=2, tile=16}".
std::string step_rule(const std::string& step);

// "mapping: coarsened 2x along dimension 0".
std::string mapping_line(const rewrite::Mapping& mapping);

// Adds "history", "mapping" and "after_mapping" to `object`.
void write_derivation(nlohmann::json& object, const Derivation& derivation);
// Reads them from `object` (all optional), in the form of file version `version`: 1 (the mapping
// a "mapping: ..." step of "history") or later. Error naming `where` for a bad field.
Derivation read_derivation(const nlohmann::json& object, int version, const std::string& where);

} // namespace tessera::explore
