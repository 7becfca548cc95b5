#include "distributed/BestVariant.h"

#include "core/Error.h"
#include "distributed/BlockGrid.h"
#include "explore/Features.h"
#include "explore/TuningDatabase.h"
#include "explore/Variants.h"

namespace tessera::distributed {

LocalVariant best_local_variant(const std::filesystem::path& database, const std::string& device,
                                const std::string& stencil, const std::vector<int64_t>& extents,
                                const Expr& local_step) {
  const std::string size = extents_text(extents);
  if (database.empty())
    return {std::nullopt, "plain lowering (no tuning database)"};
  const explore::TunedPoint* best = nullptr;
  auto points = explore::read_tuned_points(database, explore::device_key(device));
  for (const auto& p : points)
    if (p.stencil == stencil && p.size == extents && p.status == "ok" && p.speedup() > 1 &&
        (!best || p.speedup() > best->speedup()))
      best = &p;
  if (!best)
    return {std::nullopt, cat("plain lowering (the tuning database has no faster variant of ",
                              stencil, " at ", size, " on this device)")};
  for (const auto& v : explore::enumerate_variants(local_step, best->depth).variants)
    if (explore::variant_signature(v.history) == best->signature)
      return {v.program, cat("explored best variant at ", size, " (", best->signature, ", ",
                             best->speedup(), "x the plain lowering)")};
  return {std::nullopt, cat("plain lowering (the explored best variant at ", size, ", ",
                            best->signature, ", has no counterpart in the rank-local step)")};
}

} // namespace tessera::distributed
