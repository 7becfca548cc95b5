// Everything a user needs to write tessera programs in C++.
#pragma once

#include "core/Data.h"
#include "core/Error.h"
#include "core/Json.h"
#include "core/Printer.h"
#include "dsl/FixedHalo.h"
#include "dsl/Primitives.h"
#include "dsl/UserFun.h"
#include "dsl/Val.h"
#include "dsl/ValArith.h"
#include "primitives/Interpreter.h"
#include "primitives/TypeCheck.h"
