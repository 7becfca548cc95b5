// Type rules and reference semantics of the primitives, one family per file. The dispatch in
// Dispatch.cpp connects them to TypeChecker::apply and Interpreter::apply.
#pragma once

#include <vector>

#include "core/Data.h"
#include "primitives/Interpreter.h"
#include "primitives/TypeCheck.h"

namespace tessera::primitives {

using Types = std::vector<Type>;
using Values = std::vector<Data>;

// Checks the number of arguments of a primitive application.
void require_arity(const char* primitive, const Types& args, std::size_t expected);
// Checks that `t` is an array and returns it; otherwise an error naming `primitive`.
const Type& require_array(const char* primitive, const Type& t, const char* needed = "an array");
// Checks that `t` is an array of arrays and returns its element (the row type); the error
// reports the whole argument: "Join expects an array of arrays, got [f32]_8 (its elements are
// f32)".
const Type& require_nested_array(const char* primitive, const Type& t);
// Checks the side condition `a <= b` of a type rule: an error when it is false, an assumption
// (checked once sizes are known) when it cannot be decided; `why` is the message either way.
void require_le(TypeChecker& checker, const ArithExpr& a, const ArithExpr& b,
                const std::string& why);
// The printed name of a primitive with its parameters, e.g. "Slide(3,1)".
std::string describe(const Node& f);

Type map_type(TypeChecker&, const Node&, const Types&);
Data map_eval(Interpreter&, const Node&, const Values&);
Type reduce_type(TypeChecker&, const Node&, const Types&);
Data reduce_eval(Interpreter&, const Node&, const Values&);
Type scan_type(TypeChecker&, const Node&, const Types&);
Data scan_eval(Interpreter&, const Node&, const Values&);
Type zip_type(TypeChecker&, const Node&, const Types&);
Data zip_eval(Interpreter&, const Node&, const Values&);
Type split_type(TypeChecker&, const Node&, const Types&);
Data split_eval(Interpreter&, const Node&, const Values&);
Type join_type(TypeChecker&, const Node&, const Types&);
Data join_eval(Interpreter&, const Node&, const Values&);
Type slide_type(TypeChecker&, const Node&, const Types&);
Data slide_eval(Interpreter&, const Node&, const Values&);
Type pad_type(TypeChecker&, const Node&, const Types&);
Data pad_eval(Interpreter&, const Node&, const Values&);
Type drop_type(TypeChecker&, const Node&, const Types&);
Data drop_eval(Interpreter&, const Node&, const Values&);
Type transpose_type(TypeChecker&, const Node&, const Types&);
Data transpose_eval(Interpreter&, const Node&, const Values&);
Type iterate_type(TypeChecker&, const Node&, const Types&);
Data iterate_eval(Interpreter&, const Node&, const Values&);
Type at_type(TypeChecker&, const Node&, const Types&);
Data at_eval(Interpreter&, const Node&, const Values&);
Type get_type(TypeChecker&, const Node&, const Types&);
Data get_eval(Interpreter&, const Node&, const Values&);
Type generate_type(TypeChecker&, const Node&, const Types&);
Data generate_eval(Interpreter&, const Node&, const Values&);
Type stream_steps_type(TypeChecker&, const Node&, const Types&);
Data stream_steps_eval(Interpreter&, const Node&, const Values&);
Type tile_slide_type(TypeChecker&, const Node&, const Types&);
Data tile_slide_eval(Interpreter&, const Node&, const Values&);
// The tile element read by element m of window q of tile t (also used by the code generator).
ArithExpr tile_slide_index(const Node& f, const ArithExpr& t, const ArithExpr& q,
                           const ArithExpr& m);
Type user_fun_type(TypeChecker&, const Node&, const Types&);
Data user_fun_eval(Interpreter&, const Node&, const Values&);

} // namespace tessera::primitives
