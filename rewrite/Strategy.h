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
// s tried at every node, parents before their children (Stratego's topdown(try(s))), the
// children visited as the rewrite of their parent left them: one pass that never fails. For
// conditions on the enclosing nodes that must see them already rewritten (legalisation).
Strategy everywhere_topdown(Strategy s);

// The nodes around the node at `at` in `program`, from the root down to its parent: at[i] is
// the child of enclosing[i] on the way to it.
std::vector<Expr> enclosing_nodes(const Expr& program, const Position& at);
// A condition on where a node stands: the node, the nodes around it (enclosing_nodes) and its
// position.
using PlaceCondition =
    std::function<bool(const Expr& node, const std::vector<Expr>& enclosing, const Position& at)>;
// s at a node for which `holds` is true given its enclosing nodes; fails at any other.
Strategy where_enclosed(PlaceCondition holds, Strategy s);

// Each strategy at its position (relative to the node the result is applied at), the deepest
// first (a node's descendants before it, earlier siblings before later ones; steps at one
// position in the order given); fails when one fails. The positions are those of the program
// as given: each strategy must rewrite only the subtree at its position, which then leaves the
// positions of the steps after it valid. For a plan decided on the whole program first.
Strategy at_each(std::vector<std::pair<Position, Strategy>> steps);

// The parameters a strategy chooses for a rule at the node of `program` at `at`; nullopt: the
// rule is not applied there.
using ParamChooser = std::function<std::optional<Params>(const Expr& program, const Position& at)>;
// The rule's alternative with the parameters `choose` gives at the node (checked against the
// rule's declaration); fails where it gives none or the rule offers no such alternative.
Strategy rule_with(Rule r, ParamChooser choose);

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
