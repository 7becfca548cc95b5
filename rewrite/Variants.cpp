#include "rewrite/Variants.h"

#include <unordered_set>

#include "rewrite/Lower.h"

namespace tessera::rewrite {

LoweredVariants lowered_variants(const Expr& program, const EnumerateOptions& options) {
  LoweredVariants result;
  result.variants.push_back({lower_default(program), {}});
  return result;
}

} // namespace tessera::rewrite
