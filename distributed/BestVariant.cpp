#include "distributed/BestVariant.h"

#include <algorithm>
#include <map>

#include "core/Error.h"
#include "distributed/BlockGrid.h"
#include "explore/Features.h"
#include "explore/TuningDatabase.h"
#include "explore/Variants.h"

namespace tessera::distributed {

namespace {

std::map<std::string, Expr> variants_by_signature(const Expr& step, int depth) {
  std::map<std::string, Expr> found;
  for (auto& v : explore::enumerate_variants(step, depth).variants)
    found.emplace(explore::variant_signature(v.history), v.program);
  return found;
}

} // namespace

LocalVariant best_local_variant(const std::filesystem::path& database, const std::string& device,
                                const std::string& stencil, const std::vector<int64_t>& extents,
                                const Expr& step) {
  const std::string size = extents_text(extents);
  if (database.empty())
    return {std::nullopt, "plain lowering (no tuning database)"};
  const auto points = explore::read_tuned_points(database, explore::device_key(device));
  std::vector<const explore::TunedPoint*> faster;
  for (const auto& p : points)
    if (p.stencil == stencil && p.size == extents && p.status == explore::PointStatus::Ok &&
        p.speedup() > 1)
      faster.push_back(&p);
  if (faster.empty())
    return {std::nullopt, cat("plain lowering (the tuning database has no faster variant of ",
                              stencil, " at ", size, " on this device)")};
  std::stable_sort(faster.begin(), faster.end(),
                   [](auto* x, auto* y) { return x->speedup() > y->speedup(); });
  // The fastest point whose rewrite steps the block step has too (at that point's depth).
  std::map<int, std::map<std::string, Expr>> local_variants; // by depth, then signature
  for (const auto* p : faster) {
    auto at = local_variants.find(p->depth);
    if (at == local_variants.end())
      at = local_variants.emplace(p->depth, variants_by_signature(step, p->depth)).first;
    if (auto found = at->second.find(p->signature); found != at->second.end())
      return {found->second,
              cat("explored best variant at ", size, " (", p->signature, ", ", p->speedup(),
                  "x the plain lowering",
                  p == faster.front() ? "" : "; faster ones have no counterpart in the block step",
                  ")"),
              explore::parse_local_size(p->local)};
  }
  return {std::nullopt, cat("plain lowering (the ", faster.size(), " explored variants at ", size,
                            " that beat it, the fastest ", faster.front()->signature,
                            ", have no counterpart in the block step)")};
}

std::optional<Expr> variant_with_signature(const Expr& step, int depth,
                                           const std::string& signature) {
  auto variants = variants_by_signature(step, depth);
  if (auto found = variants.find(signature); found != variants.end())
    return found->second;
  return std::nullopt;
}

} // namespace tessera::distributed
