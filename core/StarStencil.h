// Whether a stencil's function reads only a star of its neighbourhood: every point off the
// centre plane (index r along dimension 0) lies on the column through the centre. StreamSteps
// keeps such a column in registers (codegen/StreamSteps.cpp); the test is structural and
// conservative: a neighbourhood passed on whole, or indexed by a non-constant, is not a star.
#pragma once

#include "core/Expr.h"

namespace tessera {

// f: a lambda of one parameter, the (2r+1)^d neighbourhood or a tuple whose component 0 is it.
bool star_shaped(const Expr& f, int d, int64_t r);

} // namespace tessera
