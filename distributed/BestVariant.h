// The explored best variant of a rank's block program (the stencil's step at the rank's extended
// block's sizes, or k steps of it in one program), from the tuning database that `tessera
// explore` fills (explore/TuningDatabase.h): among the measured points of the rank's device for
// the same program (its text's hash: the same stencil, boundary and sizes), the fastest one that
// beat the plain lowering and whose rewrite steps (variant_signature) the program's own variants
// have too. None found: the plain lowering. The sweep checks the chosen variant against the
// plain steps before it trusts it.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/Expr.h"
#include "rewrite/Enumerate.h"

namespace tessera::distributed {

struct LocalVariant {
  std::optional<Expr> program; // lowered; none: the plain lowering
  std::string description;     // which, and why ("explored best ...", "plain lowering: ...")
  std::vector<int64_t> local;  // the explored point's work-group (empty: automatic)
  double median_ms = 0;        // the chosen point's measured time (0: none chosen)
  double baseline_ms = 0;      // the plain lowering's, when the database has it (else 0)
};

// Where to look: the database, the rank's device (runtime::Device::identity()), the stencil's
// name and the program's extents (for the messages), and the enumeration's limits (the device's
// memory limits and the numbers of fused steps, as `tessera explore` enumerated them).
struct TunedLookup {
  std::filesystem::path database; // empty: none
  std::string device;
  std::string stencil;
  std::vector<int64_t> extents;
  rewrite::EnumerateOptions control;
};

// The best explored variant of `program` (before lowering). An unreadable database is an Error
// (as for explore).
LocalVariant best_local_variant(const TunedLookup& where, const Expr& program);

// The variant of `program` at `depth` with these rewrite steps (explore::variant_signature), if
// it has one: the counterpart of a variant chosen at another grid size.
std::optional<Expr> variant_with_signature(const Expr& program, int depth,
                                           const std::string& signature,
                                           const rewrite::EnumerateOptions& control = {});

} // namespace tessera::distributed
