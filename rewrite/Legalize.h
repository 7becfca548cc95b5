// The last step of the default lowering: explicit mappings that the code generator cannot
// honour where they stand become sequential, as the default lowering would have chosen.
//
// A program may arrive with mappings already in it (a rule such as map-glb or map-wrg-lcl
// applied to an inner map, a program written with MapGlb), and the default lowering then maps
// the maps around them. Where a mapping cannot run where it stands it computes the same values
// as MapSeq, so it becomes MapSeq:
//   MapGlb(d)  inside MapWrg, MapLcl or a work-item's sequential code, inside another MapGlb(d),
//              or computing an intermediate inside a work-item's function
//   MapWrg(d)  anywhere but the outermost level (inside MapGlb, MapLcl, sequential code, another
//              MapWrg(d)), or computing an intermediate inside a work-item's function
//   MapLcl(d)  outside MapWrg, inside another MapLcl(d), or computing a value that one
//              work-item holds whole (inside toPrivate, or an intermediate inside a MapLcl or
//              MapGlb): each work-item would compute only its own elements of it
// and local memory that no work-group shares becomes private (toLocal outside MapWrg or inside
// MapLcl -> toPrivate: each work-item's own copy). Mappings that can run are kept as they are.
// Both are rules (map-demote, to-private) applied from the root down, where the enclosing
// mappings (already legalised) say the node cannot stand.
#pragma once

#include "core/Expr.h"
#include "rewrite/Strategy.h"

namespace tessera::rewrite {

// The strategy: everywhere_topdown(where_enclosed(cannot run here, map-demote) |
// where_enclosed(local memory no work-group shares, to-private)), rules/Demotion.cpp.
const Strategy& legalization();
Expr legalize_mappings(const Expr& lowered);

} // namespace tessera::rewrite
