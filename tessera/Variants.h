// tessera's public C++ API, part 2: the executable rewrite variants of a program.
//
//   tessera::VariantList list = tessera::enumerate_variants(prog, /*depth=*/1);
//   for (const auto& v : list.variants)            // variants[0]: the plain MapGlb lowering
//     std::cout << tessera::variant_family(v.history) << ": " << v.text << "\n";
//
// Each variant is a lowered program (every Map is a MapGlb/MapWrg/MapLcl/MapSeq) that the code
// generator turns into one OpenCL kernel, with the rewrite steps that produced it, e.g.
// "tile-nd at [1] {dims=2, tile=16}" then "work-groups". docs/rewriting.md lists the rules.
#pragma once

#include "explore/Family.h"
#include "explore/Variants.h"

namespace tessera {

using explore::describe_step;
using explore::enumerate_variants; // (program, depth): variants[0] is the plain MapGlb lowering
using explore::variant_family;
using explore::variant_info;
using explore::VariantInfo;
using VariantList = explore::Variants; // {variants, summary}

} // namespace tessera
