// The explored best variant of a rank's block step (the stencil at the rank's extended block's
// sizes), from the tuning database that `tessera explore` fills (explore/TuningDatabase.h):
// among the measured points of the rank's device for the same stencil at that size, the fastest
// one that beat the plain lowering and whose rewrite steps (variant_signature) the block step's
// own variants have too (a point recorded for another program of the same name and size may
// have none). None found: the plain lowering. The sweep checks the chosen variant against the
// plain step before it trusts it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/Expr.h"

namespace tessera::distributed {

struct LocalVariant {
  std::optional<Expr> program; // lowered; none: the plain lowering
  std::string description;     // which, and why ("explored best ...", "plain lowering: ...")
  std::vector<int64_t> local;  // the explored point's work-group (empty: automatic)
};

// `device`: runtime::Device::identity() of the rank's device; `step`: the block step before
// lowering. An unreadable database is an Error (as for explore).
LocalVariant best_local_variant(const std::filesystem::path& database, const std::string& device,
                                const std::string& stencil, const std::vector<int64_t>& extents,
                                const Expr& step);

// The variant of `step` at `depth` with these rewrite steps (explore::variant_signature), if it
// has one: the counterpart of a variant chosen at another grid size.
std::optional<Expr> variant_with_signature(const Expr& step, int depth,
                                           const std::string& signature);

} // namespace tessera::distributed
