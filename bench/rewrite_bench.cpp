// Rewrite engine throughput: rule applications (rewrites that produced a program) per second
// during breadth-first enumeration to depth 6 (target: at least 10,000 per second), with every
// rule and with the exploration rules, on catalog stencils and on iterated stencils (one step
// applied k times, stencils::iterated_stencil), whose spaces are much larger.
//
//   ./build/bench/rewrite_bench [--limit N]
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "rewrite/Enumerate.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "stencils/Iterated.h"

using namespace tessera;

namespace {

struct Program {
  std::string name;
  Expr expr;
};

void run(const Program& p, const char* rule_set, const std::vector<rewrite::Rule>& rules,
         std::size_t limit) {
  rewrite::EnumerateOptions options;
  options.depth = 6;
  options.limit = limit;
  auto e = rewrite::enumerate(p.expr, rules, options);
  std::printf("%-12s %-11s depth %d: %6zu variants, %7zu rewrites in %6.2f s = %6.0f rewrites/s "
              "(target >= 10000)%s\n",
              p.name.c_str(), rule_set, e.stats.depth_reached, e.stats.variants, e.stats.rewrites,
              e.stats.seconds, e.stats.rewrites / e.stats.seconds,
              e.stats.stop == StopReason::Limit ? ", stopped at the variant limit" : "");
}

} // namespace

int main(int argc, char** argv) {
  std::size_t limit = 20000;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--limit") == 0 && i + 1 < argc) {
      limit = static_cast<std::size_t>(std::strtoul(argv[++i], nullptr, 10));
      continue;
    }
    std::fprintf(stderr, "error: unknown argument %s; usage: rewrite_bench [--limit N]\n", argv[i]);
    return 2;
  }
  std::vector<Program> programs;
  for (const char* name : {"j2d5pt", "j3d7pt"}) {
    const auto& info = stencils::find_stencil(name);
    std::vector<ArithExpr> extents(static_cast<std::size_t>(info.dims), ArithExpr(64));
    programs.push_back({name, info.build(extents)});
  }
  for (int k : {2, 3, 4})
    programs.push_back(
        {"j2d5pt x" + std::to_string(k), stencils::iterated_stencil("j2d5pt", {64, 64}, k)});
  programs.push_back({"j3d7pt x2", stencils::iterated_stencil("j3d7pt", {64, 64, 64}, 2)});
  for (const auto& p : programs) {
    run(p, "all rules", rewrite::all_rules(), limit);
    run(p, "exploration", rewrite::exploration_rules(), limit);
  }
  return 0;
}
