// The variant enumerator: applies rules breadth-first at every position up to a depth,
// removes duplicates by structural hash, and reports what it found and why branches were cut.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rewrite/Rule.h"

namespace tessera::rewrite {

struct EnumerateOptions {
  int depth = 4;
  std::size_t limit = 100000; // stop after this many distinct variants
  std::vector<int64_t> tile_sizes{4, 8, 16, 32, 64};
  std::vector<int64_t> coarsening{2, 4};
  std::vector<int64_t> temporal_steps{2, 3, 4};
};

struct EnumerationStats {
  std::size_t variants = 0;   // distinct programs found (including the original)
  std::size_t rewrites = 0;   // rule applications attempted that produced a program
  std::size_t duplicates = 0; // results already seen
  std::size_t ill_typed = 0;  // results rejected by the type checker (a rule bug if > 0)
  bool hit_limit = false;
  int depth_reached = 0;
  double seconds = 0;
  std::map<std::string, std::size_t> not_applicable; // rule -> "why not" counts, summarised
  std::string summary() const;
};

struct Enumeration {
  std::vector<Variant> variants; // variants[0] is the original program
  EnumerationStats stats;
};

Enumeration enumerate(const Expr& program, const std::vector<Rule>& rules,
                      const EnumerateOptions& options = {});

} // namespace tessera::rewrite
