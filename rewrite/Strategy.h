// Strategies: rules composed into deterministic rewrites (the first alternative wins), as in
// Stratego/ELEVATE. A strategy either rewrites a program or fails (nullopt).
//
//   auto lower = repeat(topdown(rule(map_seq)));     // every high-level Map -> MapSeq
//   auto tile  = seq(at({1}, rule(split_join)), try_(topdown(rule(map_fusion))));
//
// Strategies see the program's types (re-checked after every step) through RuleContext.
#pragma once

#include <functional>
#include <optional>

#include "rewrite/Rule.h"

namespace tessera::rewrite {

// Applied to a node of `program` (the root for most combinators).
using Strategy = std::function<std::optional<Expr>(const Expr& program, const Position& at,
                                                   const RuleContext& context)>;

Strategy rule(Rule r);                            // the rule's first alternative at the node
Strategy seq(Strategy first, Strategy second);    // first, then second (both must succeed)
Strategy choice(Strategy first, Strategy second); // first, or second when first fails
Strategy try_(Strategy s);                        // s, or the unchanged program
Strategy repeat(Strategy s, int limit = 1000);    // s until it fails (at least zero times)
Strategy topdown(Strategy s);  // s at the first node in pre-order (root first) where it applies
Strategy bottomup(Strategy s); // s at the first node in post-order (leaves first)
Strategy at(Position position, Strategy s); // s at a fixed position

// Runs a strategy on a whole program (types are computed for it).
std::optional<Expr> apply(const Strategy& s, const Expr& program, RuleContext context = {});

} // namespace tessera::rewrite
