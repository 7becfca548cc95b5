// The explored best variant of a rank's local step, from the tuning database that `tessera
// explore` fills (explore/TuningDatabase.h): among the measured points of the rank's device for
// the same stencil at the rank's local grid size (its extended block), the fastest one that beat
// the plain lowering and whose rewrite steps (variant_signature) the local step's own variants
// have too (the local step adds the rank's Drops and has symbolic sizes, so some variants, such
// as vectorized ones, have no counterpart). None found: the plain lowering. The sweep checks the
// chosen variant against the plain step before it trusts it (SweepConfig::check_lowering).
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

// `device`: runtime::Device::identity() of the rank's device; `local_step`: the rank-local
// step (LocalStep.h) before lowering. An unreadable database is an Error (as for explore).
LocalVariant best_local_variant(const std::filesystem::path& database, const std::string& device,
                                const std::string& stencil, const std::vector<int64_t>& extents,
                                const Expr& local_step);

} // namespace tessera::distributed
