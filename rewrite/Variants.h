// Executable variants of a high-level program: the rewrite catalog is enumerated, every
// result is completed by the default lowering, and duplicates and programs the code generator
// cannot turn into one kernel are dropped. This is what the explorer builds and times.
#pragma once

#include "rewrite/Enumerate.h"

namespace tessera::rewrite {

struct LoweredVariants {
  std::vector<Variant> variants; // variants[0] is the default lowering (the baseline)
  EnumerationStats stats;
  std::size_t rejected_by_codegen = 0;
  std::map<std::string, std::size_t> rejection_reasons; // code generator message -> count
};

LoweredVariants lowered_variants(const Expr& program, const EnumerateOptions& options = {});

} // namespace tessera::rewrite
