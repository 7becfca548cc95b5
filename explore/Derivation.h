// A variant's derivation as the explorer records it, in its variants (VariantInfo), reports and
// exported kernels: the rewrite steps (rule, position, parameters: rewrite::Step), the mapping
// that made it executable (typed data, rewrite/Mapping.h) and the rules applied to the mapped
// program. Readers take the rule and the parameters from the steps; the words ("tile-nd at [1]
// {dims=2, tile=16}") are only for display and for the files that keep them.
//
// JSON: the fields "history" (the steps in words), "mapping" (an object, absent for a program
// explored as written) and "after_mapping" (absent when empty) of the object that holds the
// derivation. Version-1 files had the mapping as a step "mapping: <text>" in "history", with the
// steps after it; read_derivation converts them.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "rewrite/Mapping.h"
#include "rewrite/Rule.h"

namespace tessera::explore {

struct Derivation {
  std::vector<rewrite::Step> steps;         // tile-nd at [1] {dims=2, tile=16}, in order
  std::optional<rewrite::Mapping> mapping;  // none: the program as written (already lowered)
  std::vector<rewrite::Step> after_mapping; // glb-order at [] {level0=1, level1=0}

  // The rule steps before and after the mapping.
  std::vector<rewrite::Step> rule_steps() const;
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

// A step in words: "tile-nd at [1] {dims=2, tile=16}", a rule applied at the root without
// parameters by its name alone ("vectorize-4").
std::string describe_step(const rewrite::Step& step);
// The steps of their words (rewrite::parse_step; Error naming `where` for words of another form).
std::vector<rewrite::Step> parse_steps(const std::vector<std::string>& words,
                                       const std::string& where);

// "mapping: coarsened 2x along dimension 0".
std::string mapping_line(const rewrite::Mapping& mapping);

// Adds "history", "mapping" and "after_mapping" to `object`.
void write_derivation(nlohmann::json& object, const Derivation& derivation);
// Reads them from `object` (all optional), in the form of file version `version`: 1 (the mapping
// a "mapping: ..." step of "history") or later. Error naming `where` for a bad field.
Derivation read_derivation(const nlohmann::json& object, int version, const std::string& where);

} // namespace tessera::explore
