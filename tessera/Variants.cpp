#include "tessera/Variants.h"

#include "core/Error.h"
#include "core/Printer.h"
#include "rewrite/Lower.h"
#include "rewrite/Variants.h"

namespace tessera {

std::string describe_step(const rewrite::Step& step) {
  if (step.position.empty() && step.params.empty())
    return step.rule;
  return rewrite::describe(step);
}

VariantInfo variant_info(const rewrite::Variant& variant) {
  VariantInfo info;
  info.program = variant.program;
  info.text = print(variant.program);
  for (const auto& step : variant.history) {
    info.history.push_back(describe_step(step));
    for (const auto& [k, v] : step.params)
      info.params[k] = v;
  }
  return info;
}

VariantList enumerate_variants(const Expr& program, int depth) {
  if (depth < 0)
    user_error(cat("the rewrite depth must be at least 0, got ", depth));
  rewrite::EnumerateOptions options;
  options.depth = depth;
  auto lowered = rewrite::lowered_variants(program, options);
  VariantList result;
  for (const auto& v : lowered.variants)
    result.variants.push_back(variant_info(v));
  if (result.variants.empty()) {
    // The enumeration always keeps the default lowering first; be robust if it does not.
    result.variants.push_back(variant_info({rewrite::lower_default(program), {}}));
  }
  result.summary =
      cat(result.variants.size(), " executable variants from ", lowered.stats.summary(), "; ",
          lowered.rejected_by_codegen, " rejected by the code generator");
  return result;
}

} // namespace tessera
