// Rules declare the node kinds they apply to (Rule::node_kinds), and the enumerator tries a rule
// only at nodes of those kinds. A rule that applies, or explains why it does not, at a node of
// another kind would lose variants or reasons: this walks every catalog stencil (one and two
// steps) and its depth-1 variants and tries every exploration rule at every node.
#include <doctest/doctest.h>

#include <map>
#include <set>

#include "compile/ExecutableVariants.h"
#include "core/Error.h"
#include "rewrite/Enumerate.h"
#include "rewrite/rules/Rules.h"
#include "stencils/Catalog.h"
#include "stencils/Iterated.h"

using namespace tessera;
using namespace tessera::rewrite;

namespace {

std::vector<Expr> catalog_programs() {
  std::vector<Expr> programs;
  for (const auto& info : stencils::catalog()) {
    int64_t side = info.dims == 1 ? 256 : info.dims == 2 ? 32 : 12;
    std::vector<ArithExpr> extents(static_cast<std::size_t>(info.dims), ArithExpr(side));
    programs.push_back(info.build(extents));
    try {
      programs.push_back(stencils::iterated_stencil(info.name, extents, 2));
    } catch (const Error&) { // not a step from a grid to a grid of the same type
    }
  }
  return programs;
}

} // namespace

TEST_CASE("every exploration rule applies, or says why not, only at the node kinds it declares") {
  EnumerateOptions options;
  options.depth = 1;
  explore::add_compile_rules(options);
  std::vector<Rule> rules = exploration_rules();
  rules.insert(rules.end(), options.extra_rules.begin(), options.extra_rules.end());
  std::map<std::string, std::set<std::string>> seen;
  int undeclared = 0;
  for (const Expr& program : catalog_programs())
    for (const auto& variant : enumerate(program, rules, options).variants) {
      TypeChecker types;
      types.apply(variant.program, input_types(variant.program));
      RuleContext ctx;
      ctx.types = &types;
      ctx.tile_sizes = options.tile_sizes;
      ctx.coarsening = options.coarsening;
      ctx.temporal_steps = options.temporal_steps;
      for_each_node(variant.program, [&](const Expr& node, const Position& at, bool inside) {
        ctx.inside_function = inside;
        ctx.below_program_body = at.size() > 1;
        for (const auto& rule : rules) {
          RuleResult r = rule.apply(node, ctx);
          if (r.alternatives.empty() && r.why_not.empty())
            continue;
          seen[rule.name].insert(kind_name(node->kind));
          if (!rule.applies_to(node->kind)) {
            ++undeclared;
            FAIL_CHECK(rule.name, " applies or explains itself at a ", kind_name(node->kind));
          }
        }
      });
    }
  for (const auto& [rule, kinds] : seen) {
    std::string list;
    for (const auto& k : kinds)
      list += " " + k;
    MESSAGE(rule, ":", list);
  }
  CHECK(undeclared == 0);
  CHECK(seen.size() >= 10);
}
