// A variant's name: what `--variant` accepts beside a number. Numbers shift from one grid size
// to another (a size where the coarsening factor does not divide the columns has four variants
// fewer, and every later number moves), names do not: the same derivation is the same variant
// at every size where it exists.
#pragma once

#include <cstddef>
#include <string>

#include "explore/Derivation.h"
#include "explore/Variants.h"

namespace tessera::explore {

// The derivation's lines as `tessera variants` prints them, "; " between them:
// "tile-nd at [1] {dims=2, tile=16}; mapping: coarsened"; the plain lowering "mapping: global".
std::string variant_name(const Derivation& history);

// The index in `variants` of the variant that `which` names: a number K (0 to size - 1), or a
// name (variant_name; runs of spaces, a leading "[family] " and the plain lowering's
// "(the plain MapGlb lowering: the baseline)" as `tessera variants` prints them are ignored).
// Error otherwise, saying how many variants `program` has at `depth` and, for a name, the
// families absent here and why.
std::size_t find_variant(const Variants& variants, const std::string& which,
                         const std::string& program, int depth);

} // namespace tessera::explore
