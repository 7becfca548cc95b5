// Saving and loading expressions as JSON (nlohmann/json).
//
//   {"format": "tessera-expr", "version": 1, "expr": NODE}
//   NODE = {"kind": "Call", "args": [NODE...]} ... see Json.cpp for every kind.
// Parameters are numbered by order of appearance ("param": k, defined with its name and type at
// its first appearance; a lambda's parameters are in scope in its body only); a program's inputs
// carry their types. Scalar constants that are not finite are the strings "inf", "-inf", "nan".
// Loading checks everything and reports every problem as a tessera::Error that says what is
// wrong and where (a JSON pointer; load_expr_file adds the file). Round trip:
// print(load(save(e))) == print(e).
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

#include "core/Expr.h"

namespace tessera {

nlohmann::json expr_to_json(const Expr& e);
Expr expr_from_json(const nlohmann::json& j); // throws Error on anything that is not valid

void to_json(nlohmann::json& j, const Type& t);
Type type_from_json(const nlohmann::json& j);

// Text helpers; load_expr_file reports unreadable files and JSON syntax errors clearly.
std::string save_expr(const Expr& e);
Expr load_expr(const std::string& text);
void save_expr_file(const Expr& e, const std::string& path); // atomic: temp file + rename
Expr load_expr_file(const std::string& path);

} // namespace tessera
