// A variant's derivation as the explorer records it, in its variants (VariantInfo), reports and
// exported kernels: the rewrite steps in words, the mapping that made it executable (typed data,
// rewrite/Mapping.h) and the rules applied to the mapped program.
//
// JSON: the fields "history" (the steps), "mapping" (an object, absent for a program explored as
// written) and "after_mapping" (absent when empty) of the object that holds the derivation.
// Version-1 files had the mapping as a step "mapping: <text>" in "history", with the steps after
// it; derivation_from_json converts them.
#pragma once

#include <cstddef>
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

  // Iterable as its lines(): `for (const std::string& step : variant.history)`. The lines are
  // made as they are read (the mapping's is not stored), so bind them by value or const&.
  class LineIterator {
  public:
    using value_type = std::string;
    using difference_type = std::ptrdiff_t;
    LineIterator() = default;
    LineIterator(const Derivation* d, std::size_t i) : d_(d), i_(i) {}
    std::string operator*() const;
    LineIterator& operator++() {
      ++i_;
      return *this;
    }
    LineIterator operator++(int) {
      LineIterator old = *this;
      ++i_;
      return old;
    }
    bool operator==(const LineIterator& o) const { return i_ == o.i_; }

  private:
    const Derivation* d_ = nullptr;
    std::size_t i_ = 0;
  };
  std::size_t size() const { return steps.size() + (mapping ? 1 : 0) + after_mapping.size(); }
  bool empty() const { return size() == 0; }
  LineIterator begin() const { return {this, 0}; }
  LineIterator end() const { return {this, size()}; }
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
