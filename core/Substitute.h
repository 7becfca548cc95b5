// Replacing size variables by values throughout an expression (types of inputs, primitive
// parameters), producing a new expression with fresh input parameters.
#pragma once

#include <map>

#include "core/Expr.h"

namespace tessera {

Expr substitute_sizes(const Expr& program, const std::map<std::string, ArithExpr>& sizes);
Type substitute_sizes(const Type& type, const std::map<std::string, ArithExpr>& sizes);

// A copy of e with the nodes in `renamed` replaced by their values and fresh parameters for
// every lambda, so that copies share no nodes (rewrites address nodes by identity): applying
// a program's body to other arguments, once per time step.
Expr instantiate(const Expr& e, std::map<const Node*, Expr>& renamed);

// True when the function only rearranges data (views), computing nothing.
bool is_layout_only(const Expr& f);

} // namespace tessera
