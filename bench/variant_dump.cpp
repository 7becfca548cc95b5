// The variant space of every catalog stencil, for comparing the rewrite pipeline before and after
// a change: the number of lowered variants at depth 1 and 2 (without code generation, as the
// explorer lists them) and of executable ones (those whose kernels generate), and with
// --kernels DIR the generated OpenCL of every executable depth-1 variant, DIR/<stencil>/<i>.cl
// (with --depth2 also of every depth-2 one, DIR/<stencil>/depth2/<i>.cl).
// Two dumps of the same sizes compare with `diff -r`.
//
// --steps K dumps the stencils applied K times (stencils::iterated_stencil: programs of several
// steps, temporal tiling).
//
//   ./build/bench/variant_dump [--kernels DIR] [--only j2d5pt,j3d7pt] [--depth2] [--steps K]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "codegen/Program.h"
#include "compile/ExecutableVariants.h"
#include "core/Error.h"
#include "rewrite/Variants.h"
#include "stencils/Catalog.h"
#include "stencils/Iterated.h"

using namespace tessera;

namespace {

std::vector<ArithExpr> extents_of(int dims) {
  int64_t side = dims == 1 ? 4096 : dims == 2 ? 64 : 16;
  return std::vector<ArithExpr>(static_cast<std::size_t>(dims), ArithExpr(side));
}

bool wanted(const std::string& name, const std::string& only) {
  if (only.empty())
    return true;
  std::string list = "," + only + ",";
  return list.find("," + name + ",") != std::string::npos;
}

std::size_t lowered_count(const Expr& program, int depth) {
  rewrite::EnumerateOptions options;
  options.depth = depth;
  return rewrite::lowered_variants(program, options).variants.size();
}

// The kernels of every variant, <i>.cl in `dir`.
void dump_kernels(const rewrite::LoweredVariants& variants, const std::filesystem::path& dir) {
  std::filesystem::create_directories(dir);
  for (std::size_t i = 0; i < variants.variants.size(); ++i) {
    std::ofstream out(dir / (std::to_string(i) + ".cl"));
    for (const auto& k : codegen::generate_program(variants.variants[i].program).kernels)
      out << k.source << "\n";
  }
}

} // namespace

int main(int argc, char** argv) {
  std::string kernels, only;
  bool depth2 = false;
  int steps = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--kernels") == 0 && i + 1 < argc)
      kernels = argv[++i];
    else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];
    else if (std::strcmp(argv[i], "--steps") == 0 && i + 1 < argc)
      steps = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--depth2") == 0)
      depth2 = true;
    else {
      std::fprintf(stderr,
                   "error: unknown argument %s; usage: variant_dump [--kernels DIR] "
                   "[--only NAME,...] [--steps K] [--depth2]\n",
                   argv[i]);
      return 2;
    }
  }
  std::printf("%-12s %-10s %9s %9s %9s %9s\n", "stencil", "size", "lowered1", "executable1",
              depth2 ? "lowered2" : "", depth2 ? "executable2" : "");
  for (const auto& info : stencils::catalog()) {
    if (!wanted(info.name, only))
      continue;
    Expr program;
    try {
      program = steps == 1 ? info.build(extents_of(info.dims))
                           : stencils::iterated_stencil(info.name, extents_of(info.dims), steps);
    } catch (const Error&) {
      continue; // not a step from a grid to a grid of the same type
    }
    rewrite::EnumerateOptions options;
    options.depth = 1;
    auto executable = explore::executable_variants(program, options);
    std::string size = info.dims == 1 ? "4096" : info.dims == 2 ? "64x64" : "16x16x16";
    std::printf("%-12s %-10s %9zu %9zu", info.name.c_str(), size.c_str(), lowered_count(program, 1),
                executable.variants.size());
    rewrite::LoweredVariants executable2;
    if (depth2) {
      options.depth = 2;
      executable2 = explore::executable_variants(program, options);
      std::printf(" %9zu %9zu", lowered_count(program, 2), executable2.variants.size());
    }
    std::printf("\n");
    std::fflush(stdout);
    if (kernels.empty())
      continue;
    auto dir = std::filesystem::path(kernels) / info.name;
    dump_kernels(executable, dir);
    if (depth2)
      dump_kernels(executable2, dir / "depth2");
  }
  return 0;
}
