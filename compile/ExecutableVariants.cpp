#include "compile/ExecutableVariants.h"

#include <algorithm>

#include "codegen/Program.h"
#include "compile/TridiagonalRules.h"

namespace tessera::explore {

void check_kernels_generate(const Expr& lowered, const Target& target) {
  codegen::CodegenOptions options;
  options.target = target;
  codegen::generate_program(lowered, options);
}

void add_compile_rules(rewrite::EnumerateOptions& options) {
  for (auto& rule : tridiagonal_rules())
    if (std::none_of(options.extra_rules.begin(), options.extra_rules.end(),
                     [&](const rewrite::Rule& r) { return r.name == rule.name; }))
      options.extra_rules.push_back(std::move(rule));
}

rewrite::LoweredVariants executable_variants(const Expr& program,
                                             rewrite::EnumerateOptions options) {
  options.check_generation = [target = options.target](const Expr& lowered) {
    check_kernels_generate(lowered, target);
  };
  add_compile_rules(options);
  return rewrite::lowered_variants(program, options);
}

} // namespace tessera::explore
