// The generated kernels of a program's first executable variants as text, for the tests that
// compare two ways of writing a stencil kernel for kernel.
#pragma once

#include <string>
#include <vector>

#include "codegen/Program.h"
#include "compile/ExecutableVariants.h"

namespace tessera::testing {

// The default lowering's and the next executable variants' kernels (in enumeration order, to
// `depth`), at most `count`, each as the program's description followed by its kernels' sources.
inline std::vector<std::string> variant_kernel_texts(const Expr& p, std::size_t count, int depth) {
  rewrite::EnumerateOptions options;
  options.depth = depth;
  std::vector<std::string> sources;
  for (const auto& v : explore::executable_variants(p, options).variants) {
    if (sources.size() == count)
      break;
    codegen::KernelProgram kernels = codegen::generate_program(v.program);
    std::string text = kernels.describe();
    for (const auto& k : kernels.kernels)
      text += k.source;
    sources.push_back(text);
  }
  return sources;
}

} // namespace tessera::testing
