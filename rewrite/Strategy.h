// Strategies: rules composed into deterministic rewrites (the first alternative wins), as in
// Stratego/ELEVATE. A strategy either rewrites a program or fails (nullopt).
//
//   auto lower = repeat(topdown(rule(map_seq)));     // every high-level Map -> MapSeq
//   auto tile  = seq(at({1}, rule(split_join)), try_(topdown(rule(map_fusion))));
//
// Strategies see the program's types (re-checked after every step, for the rules that read
// them) through RuleContext. The lowering (rewrite/Lower.h) and the mapping stage
// (rewrite/MapLevels.h) are strategies over the lowering rules.
#pragma once

#include <functional>
#include <optional>

#include "rewrite/Rule.h"

namespace tessera::rewrite {

// Applied to a node of `program` (the root for most combinators).
using Strategy = std::function<std::optional<Expr>(const Expr& program, const Position& at,
                                                   const RuleContext& context)>;

Strategy rule(Rule r);                         // the rule's first alternative at the node
Strategy rule(Rule r, Params params);          // its alternative with these (declared) parameters
Strategy seq(Strategy first, Strategy second); // first, then second (both must succeed)
Strategy choice(Strategy first, Strategy second); // first, or second when first fails
Strategy try_(Strategy s);                        // s, or the unchanged program
Strategy repeat(Strategy s, int limit = 1000);    // s until it fails (at least zero times)
Strategy topdown(Strategy s);  // s at the first node in pre-order (root first) where it applies
Strategy bottomup(Strategy s); // s at the first node in post-order (leaves first)
Strategy at(Position position, Strategy s); // s at a fixed position
// s at a node for which `holds` is true; fails at any other.
Strategy where(std::function<bool(const Expr& node)> holds, Strategy s);
// s tried at every node, children before their parent (Stratego's bottomup(try(s))): one pass
// that never fails.
Strategy everywhere(Strategy s);

// The alternative of `r` at `node` whose parameters are `params` (checked against the rule's
// declaration, Error when they are not in it), or nullopt when the rule offers none there. A
// rule that reads types needs context.types; one that does not also applies to a fragment.
std::optional<Expr> rewrite_with(const Rule& r, const Expr& node, const Params& params,
                                 const RuleContext& context);
// rewrite_with for a strategy that put the rule where it applies (internal Error otherwise).
Expr rewrite_node(const Rule& r, const Expr& node, const Params& params = {},
                  const RuleContext& context = {});

// Runs a strategy on a whole program (types are computed for it).
std::optional<Expr> apply(const Strategy& s, const Expr& program, RuleContext context = {});

} // namespace tessera::rewrite
