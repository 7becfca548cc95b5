// tessera's public C++ API, part 2: the executable rewrite variants of a program.
//
//   auto list = tessera::enumerate_variants(prog, /*depth=*/1);
//   for (const auto& v : list.variants)            // variants[0]: the plain MapGlb lowering
//     std::cout << tessera::variant_family(v.history) << ": " << v.text << "\n";
//
// Each variant is a lowered program (every Map is a MapGlb/MapWrg/MapLcl/MapSeq) that the code
// generator turns into one OpenCL kernel, with the rewrite steps that produced it, e.g.
// "tile-nd at [1] {dims=2, tile=16}" then "work-groups". docs/rewriting.md lists the rules.
#pragma once

#include <string>
#include <vector>

#include "explore/Family.h"
#include "explore/Space.h"
#include "explore/VariantNames.h"
#include "explore/Variants.h"
#include "rewrite/Rule.h"

namespace tessera {

using explore::variant_family;
using explore::VariantInfo;

// variants: [0] = the plain MapGlb lowering (the baseline); summary: the enumeration's
// statistics in one line.
using VariantList = explore::Variants;

// enumerate_variants(program, depth = 1): the rewrite catalog up to `depth` steps, every result
// lowered with the mapping strategies; duplicates and programs the code generator cannot handle
// are dropped. describe_step: "tile-nd at [1] {dims=2, tile=16}". variant_info: a rewrite
// variant as the explorer sees it.
using explore::describe_step;
using explore::enumerate_variants;
using explore::variant_info;
// variant_name(v.history): "tile-nd at [1] {dims=2, tile=16}; mapping: coarsened", the same at
// every size where the variant exists (its number in the list is not); find_variant(list,
// "3" or a name, program name, depth): its index, or an Error saying what exists.
using explore::find_variant;
using explore::variant_name;

} // namespace tessera
