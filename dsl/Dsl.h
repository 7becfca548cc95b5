// Everything a user needs to write tessera programs in C++.
#pragma once

#include "core/Data.h"
#include "core/Error.h"
#include "core/Interpreter.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "core/TypeCheck.h"
#include "dsl/Primitives.h"
#include "dsl/UserFun.h"
#include "dsl/Val.h"
