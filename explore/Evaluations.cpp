#include "explore/Evaluations.h"

#include <iomanip>
#include <sstream>

#include "codegen/TimeTiled.h"
#include "core/Error.h"
#include "explore/Family.h"
#include "rewrite/rules/StencilSteps.h"

namespace tessera::explore {

namespace {

int64_t points(const std::vector<int64_t>& extents) {
  int64_t n = 1;
  for (auto e : extents)
    n *= e;
  return n;
}

int64_t param(const VariantInfo& v, const std::string& name, int64_t fallback) {
  auto it = v.params.find(name);
  return it == v.params.end() ? fallback : it->second;
}

} // namespace

std::optional<int64_t> stencil_evaluations(const Problem& problem, const VariantInfo& v) {
  auto chain = rewrite::match_stencil_steps(problem.program->body());
  if (!chain || chain->count < 2 || !chain->r.is_constant())
    return std::nullopt;
  const int64_t K = chain->count, r = chain->r.value(), N = points(problem.extents);
  std::string family = variant_family(v.history);
  if (family == "diamond" || family == "parallelogram" || family == "rolling")
    return codegen::time_tiled_evaluations(v.program);
  if (family == "plain")
    return K * N; // one launch per step
  if (family != "temporal")
    return std::nullopt;
  // k fused steps on tiles of T (T_inner in the innermost dimension): layer j of k covers the
  // tile plus a halo of (k-j)r; the other K-k steps are sweeps.
  const int64_t k = param(v, "steps", K), T = param(v, "tile", 1);
  const int d = static_cast<int>(problem.extents.size());
  int64_t tiles = 1;
  std::vector<int64_t> tile(problem.extents.size(), T);
  tile.back() = param(v, "tile_inner", T);
  for (int l = 0; l < d; ++l)
    tiles *= problem.extents[static_cast<std::size_t>(l)] / tile[static_cast<std::size_t>(l)];
  int64_t per_tile = 0;
  for (int64_t j = 1; j <= k; ++j) {
    int64_t layer = 1;
    for (int l = 0; l < d; ++l)
      layer *= tile[static_cast<std::size_t>(l)] + 2 * (k - j) * r;
    per_tile += layer;
  }
  return tiles * per_tile + (K - k) * N;
}

std::string evaluation_summary(const Report& report, const Problem& problem) {
  auto chain = rewrite::match_stencil_steps(problem.program->body());
  if (!chain || chain->count < 2)
    return "";
  const int64_t kN = chain->count * points(problem.extents);
  std::ostringstream s;
  s << "stencil evaluations (k x N = " << chain->count << " x " << points(problem.extents) << " = "
    << kN << "), fastest variant of each family:\n";
  for (const char* family : {"plain", "temporal", "diamond", "parallelogram", "rolling"}) {
    const PointResult* best = nullptr;
    for (const auto& p : report.points)
      if (p.status == PointStatus::Ok && variant_family(p.history) == family &&
          (!best || p.median_ms < best->median_ms))
        best = &p;
    if (!best || best->variant < 0 ||
        static_cast<std::size_t>(best->variant) >= problem.variants.size())
      continue;
    const VariantInfo& v = problem.variants[static_cast<std::size_t>(best->variant)];
    auto count = stencil_evaluations(problem, v);
    s << "  " << std::left << std::setw(14)
      << (std::string(family) == "plain" ? "k sweeps" : family) << std::right << std::setw(14)
      << (count ? std::to_string(*count) : "?") << "  ";
    if (count)
      s << std::fixed << std::setprecision(3) << static_cast<double>(*count) / kN << " x kN";
    s << std::setprecision(3) << "  " << best->median_ms << " ms  (variant " << best->variant
      << ")\n";
  }
  return s.str();
}

} // namespace tessera::explore
