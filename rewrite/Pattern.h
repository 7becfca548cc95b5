// Small helpers for writing rules: recognising calls of a primitive and building replacements.
#pragma once

#include "core/Expr.h"

namespace tessera::rewrite {

// Is `e` a call whose function has the given kind?
bool is_call_of(const Expr& e, NodeKind kind);
// A call of a high-level Map (kind Map) whose function computes something.
bool is_computing_map_call(const Expr& e);
// The single argument of a one-argument call.
const Expr& arg0(const Expr& call);
// f $ x
Expr call1(Expr f, Expr x);
// Map^level(f) $ x: f applied at nesting level `level` of x.
Expr at_level(int level, const Expr& f, const Expr& x);
// p => f(g(p)): the composition of two one-argument functions (g first).
Expr compose2(const Expr& f, const Expr& g);
// Does `e` mention the parameter node?
bool mentions(const Expr& e, const Node* param);
// e with the node `from` replaced by `to` everywhere (nodes shared, unchanged subtrees kept).
Expr replace_node(const Expr& e, const Node* from, const Expr& to);
// The user function id(x) = x: the copy a staging into another memory applies.
Expr identity_fun();
// Is f a nest of Maps (of any kind) of identity_fun, as a staging copies?
bool is_copy(const Expr& f);
// How many high-level Maps are nested directly: Map(Map(f)) -> 2, with f returned.
int map_depth(const Expr& f, Expr* innermost);

} // namespace tessera::rewrite
