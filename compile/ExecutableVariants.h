// The variants of a program that run: rewrite::lowered_variants with the code generator as its
// generation check, and the rules of this layer (those that build with the DSL) beside rewrite's.
#pragma once

#include "core/Expr.h"
#include "core/Target.h"
#include "rewrite/Enumerate.h"
#include "rewrite/Variants.h"

namespace tessera::explore {

// The generation check: throws tessera::Error when the code generator rejects the program for
// the target.
void check_kernels_generate(const Expr& lowered, const Target& target);

// Adds the rules that build with the DSL (compile/TridiagonalRules.h: thomas-to-pcr) to
// options.extra_rules, each once.
void add_compile_rules(rewrite::EnumerateOptions& options);

// rewrite::lowered_variants with the code generator as its generation check: only candidates
// whose kernels generate (codegen::generate_program) are returned.
rewrite::LoweredVariants executable_variants(const Expr& program,
                                             rewrite::EnumerateOptions options = {});

} // namespace tessera::explore
