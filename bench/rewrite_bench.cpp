// Rewrite engine throughput: rule applications (rewrites that produced a program) per second
// during breadth-first enumeration with every rule (target: at least 10,000 per second).
//
//   ./build/bench/rewrite_bench
#include <cstdio>

#include "rewrite/Enumerate.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"

using namespace tessera;

int main() {
  for (const char* name : {"j2d5pt", "j3d7pt"}) {
    const auto& info = stencils::find_stencil(name);
    std::vector<ArithExpr> extents(static_cast<std::size_t>(info.dims), ArithExpr(64));
    rewrite::EnumerateOptions options;
    options.depth = 6;
    options.limit = 20000;
    auto e = rewrite::enumerate(info.build(extents), rewrite::all_rules(), options);
    std::printf("%-8s depth %d: %zu variants, %zu rewrites in %.2f s = %.0f rewrites/s "
                "(target >= 10000)\n",
                name, e.stats.depth_reached, e.stats.variants, e.stats.rewrites, e.stats.seconds,
                e.stats.rewrites / e.stats.seconds);
  }
  return 0;
}
