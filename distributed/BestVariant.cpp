#include "distributed/BestVariant.h"

#include <algorithm>
#include <map>

#include "core/Error.h"
#include "core/Printer.h"
#include "distributed/BlockGrid.h"
#include "explore/Features.h"
#include "explore/Prior.h"
#include "explore/TuningDatabase.h"
#include "explore/VariantNames.h"
#include "explore/Variants.h"

namespace tessera::distributed {

namespace {

struct Found {
  Expr program;
  std::string steps; // the derivation's lines, for the messages
};

std::map<std::string, Found> variants_by_signature(const Expr& program, int depth,
                                                   const rewrite::EnumerateOptions& control) {
  std::map<std::string, Found> found;
  for (auto& v : explore::enumerate_variants(program, depth, control).variants) {
    found.emplace(explore::variant_signature(v.history),
                  Found{v.program, explore::variant_name(v.history)});
  }
  return found;
}

} // namespace

LocalVariant best_local_variant(const TunedLookup& where, const Expr& program) {
  const std::string size = extents_text(where.extents);
  if (where.database.empty())
    return {std::nullopt, "plain lowering (no tuning database)"};
  const auto points = explore::read_tuned_points(where.database, explore::device_key(where.device));
  const std::string hash = explore::program_hash(print(program));
  std::vector<const explore::TunedPoint*> faster;
  double baseline_ms = 0;
  for (const auto& p : points) {
    if (p.program_hash != hash || p.status != explore::PointStatus::Ok)
      continue;
    baseline_ms = p.baseline_ms;
    if (p.speedup() > 1)
      faster.push_back(&p);
  }
  if (faster.empty())
    return {std::nullopt,
            cat("plain lowering (the tuning database has no faster variant of ", where.stencil,
                " at ", size, " on this device)"),
            {},
            0,
            baseline_ms};
  std::stable_sort(faster.begin(), faster.end(),
                   [](auto* x, auto* y) { return x->speedup() > y->speedup(); });
  // The fastest point whose rewrite steps the program has too (at that point's depth).
  std::map<int, std::map<std::string, Found>> by_depth; // then by signature
  for (const auto* p : faster) {
    auto at = by_depth.find(p->depth);
    if (at == by_depth.end())
      at =
          by_depth.emplace(p->depth, variants_by_signature(program, p->depth, where.control)).first;
    if (auto found = at->second.find(p->signature); found != at->second.end())
      return {found->second.program,
              cat("explored best variant at ", size, " (", found->second.steps, ", ", p->speedup(),
                  "x the plain lowering",
                  p == faster.front() ? "" : "; faster ones have no counterpart here", ")"),
              explore::parse_local_size(p->local), p->median_ms, p->baseline_ms};
  }
  return {std::nullopt,
          cat("plain lowering (the ", faster.size(), " explored variants at ", size,
              " that beat it have no counterpart here)"),
          {},
          0,
          baseline_ms};
}

std::optional<Expr> variant_with_signature(const Expr& program, int depth,
                                           const std::string& signature,
                                           const rewrite::EnumerateOptions& control) {
  auto variants = variants_by_signature(program, depth, control);
  if (auto found = variants.find(signature); found != variants.end())
    return found->second.program;
  return std::nullopt;
}

} // namespace tessera::distributed
