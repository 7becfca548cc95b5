// Beta normalisation: Call(Lambda(p => body), a) becomes body with p replaced by a, when that
// duplicates no computation (a is used at most once, or a only rearranges data). Programs
// built with `>>` are full of such calls; normalised, they are the flat chains that rules
// match (`Map(Transpose) o Map(Map(Slide)) o Slide $ x`).
#pragma once

#include "core/Expr.h"

namespace tessera::rewrite {

Expr beta_normalize(const Expr& e);

} // namespace tessera::rewrite
