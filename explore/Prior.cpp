#include "explore/Prior.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/Error.h"
#include "runtime/Hash.h"

namespace tessera::explore {

namespace {

struct Known {
  double best_speedup = 0;                            // over the records of this signature
  bool failed = false;                                // some record of it failed or mismatched
  std::vector<std::pair<double, std::string>> locals; // (speedup, local)
};

std::map<std::string, Known> by_signature(const std::vector<TunedPoint>& points) {
  std::map<std::string, Known> known;
  for (const auto& p : points) {
    Known& k = known[p.signature];
    double s = p.speedup();
    k.best_speedup = std::max(k.best_speedup, s);
    k.failed |= p.status != PointStatus::Ok;
    if (s > 0)
      k.locals.push_back({s, p.local});
  }
  return known;
}

void add_locals(std::vector<std::string>& out, const Known* known) {
  if (!known)
    return;
  auto locals = known->locals;
  std::sort(locals.begin(), locals.end(), [](const auto& a, const auto& b) { return a > b; });
  for (const auto& [s, local] : locals)
    if (std::find(out.begin(), out.end(), local) == out.end())
      out.push_back(local);
}

} // namespace

std::string program_hash(const std::string& program_text) {
  return runtime::hex64(runtime::fnv1a64(program_text));
}

Prior make_prior(const std::vector<VariantInfo>& variants, const std::vector<TunedPoint>& known,
                 const PriorContext& context) {
  Prior prior;
  std::vector<TunedPoint> same, similar;
  for (const auto& p : known) {
    if (p.program_hash == context.program_hash)
      same.push_back(p);
    else if (!context.stencil.empty() && p.stencil == context.stencil)
      similar.push_back(p);
    prior.model.add(p.words, p.speedup());
  }
  auto same_known = by_signature(same), similar_known = by_signature(similar);

  // (tier, arithmetic, -score, steps, index): smaller first. Within a tier the variants with
  // partial sums by plane (sums=1) come first: the enumeration offers them only for windows of
  // 28 points or more (EnumerateOptions::plane_sums_min_points), whose arithmetic bounds them,
  // and they cut it (a 729-point box 7x faster on an H200), so a short search measures them.
  std::vector<std::tuple<int, int, double, int, int>> keys;
  for (std::size_t v = 0; v < variants.size(); ++v) {
    prior.features.push_back(variant_features(variants[v], context.cells));
    const VariantFeatures& f = prior.features.back();
    std::string signature = variant_signature(variants[v].history);
    auto s = same_known.find(signature);
    auto m = similar_known.find(signature);
    const Known* exact = s == same_known.end() ? nullptr : &s->second;
    const Known* near = m == similar_known.end() ? nullptr : &m->second;
    prior.preferred_locals.emplace_back();
    add_locals(prior.preferred_locals.back(), exact);
    add_locals(prior.preferred_locals.back(), near);
    if (v == 0)
      continue;
    int tier = 3;
    double score = prior.model.predict(f.words);
    if (exact && exact->best_speedup >= 1) {
      tier = 1;
      score = exact->best_speedup;
      ++prior.from_program;
    } else if (near && near->best_speedup >= 1) {
      tier = 2;
      score = near->best_speedup;
      ++prior.from_similar;
    } else if (exact && exact->best_speedup > 0) {
      score = std::log(exact->best_speedup); // measured slower than the baseline
    } else if (exact && exact->failed) {
      tier = 4;
    }
    const bool sums = std::binary_search(f.words.begin(), f.words.end(), std::string("sums=1"));
    keys.push_back({tier, sums ? 0 : 1, -score, f.steps, static_cast<int>(v)});
  }
  std::sort(keys.begin(), keys.end());
  for (const auto& k : keys)
    prior.order.push_back(std::get<4>(k));
  prior.summary = known.empty()
                      ? std::string("no earlier points on this device: shallower variants first")
                      : cat("tuning database: ", prior.from_program,
                            " variants first from earlier runs of this program, ",
                            prior.from_similar, " from similar programs; cost model from ",
                            prior.model.observations(), " points of this device");
  return prior;
}

} // namespace tessera::explore
