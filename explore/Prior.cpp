#include "explore/Prior.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

#include "core/Error.h"
#include "explore/Family.h"
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

// A variant's place in the search order, smaller first.
struct OrderKey {
  int tier;         // Prior.h's tiers 1-4
  int first;        // 0: partial sums blocked along y; 1: partial sums, a split launch or
                    // separable passes; 2: the others
  double neg_score; // the database's speedup or the cost model's prediction, negated
  int steps;        // rewrite steps: shallower first
  int family_rank;  // among variants equal so far, its family's how-manieth (interleave_families)
  int index;
  bool operator<(const OrderKey& o) const {
    return std::tie(tier, first, neg_score, steps, family_rank, index) <
           std::tie(o.tier, o.first, o.neg_score, o.steps, o.family_rank, o.index);
  }
};

// Sorts `keys`, the variants equal in everything before family_rank taken family by family in
// turn (each family's first, then each one's second, ...): without a database all of a depth's
// variants are equal, and in enumeration order a 30 s search of a 3-D star measured 66
// coarsened variants and never the streaming ones.
void interleave_families(std::vector<OrderKey>& keys,
                         const std::vector<VariantFeatures>& features) {
  const auto group = [](const OrderKey& k) {
    return std::tie(k.tier, k.first, k.neg_score, k.steps);
  };
  std::sort(keys.begin(), keys.end());
  std::map<std::string, int> seen;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (i > 0 && group(keys[i]) != group(keys[i - 1]))
      seen.clear();
    keys[i].family_rank = seen[features[static_cast<std::size_t>(keys[i].index)].family]++;
  }
  std::sort(keys.begin(), keys.end());
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

  // Smaller first (OrderKey). Within a tier the variants with partial sums by plane (sums=1)
  // come first: the enumeration offers them only for windows of 28 points or more
  // (EnumerateOptions::plane_sums_min_points), whose arithmetic bounds them, and they cut it (a
  // 729-point box 7x faster on an H200), so a short search measures them. So does the split
  // launch on a CPU, where its interior without the boundary branch vectorises (a 27-point box's
  // plain lowering 8x faster on PoCL), and the separable passes, offered only where the
  // weights factor: (2r+1)^d multiply-adds a point become d (2r+1). The partial sums blocked
  // along x (factor=c), then along y (rows=c), go before them: on an H200 the blocked sums were
  // the fastest of every stencil they were offered for (the 27-point box 1.18x, the 125-point
  // box 1.31x the unblocked sums along y), and along x faster than along y for the 3-D stars
  // (radius 2 0.349 against 0.381 ms, 4 0.443 against 0.487) and as fast for the 27-point box
  // (0.390 against 0.379 ms); a 16 s search of the radius-4 star measures 12 points. Rolling
  // tiles (offered on CPUs alone, for k steps) go with the "first": on PoCL they ran 4 and 8
  // steps of j2d5pt at 8192^2 faster than any other fused form. On a CPU the sums blocked along x
  // by whole vectors (8 results or more) of whole columns come first, then in segments, and the
  // smaller blocks with the other "first": PoCL ran j3d27pt's at 320^3 in 30.8 ms with 16
  // results a step, 48-51 ms in segments, 87-94 ms with 2 results (a 40 s search that took those
  // first measured 8 points and found nothing faster than its 45 ms split launch).
  std::vector<OrderKey> keys;
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
    const auto& params = variants[v].params;
    const bool along_x = sums && params.count("factor") > 0,
               along_y = sums && params.count("rows") > 0;
    const std::string family = variant_family(variants[v].history);
    const bool split = context.cpu && family == "split-launch";
    const bool first = sums || split || family == "separable" || family == "rolling";
    int kind = along_x ? 0 : along_y ? 1 : first ? 2 : 3;
    if (context.cpu && along_x) { // PoCL: whole vectors along x, whole columns first
      const bool vectors = params.at("factor") >= 8;
      kind = vectors && !params.count("segment") ? 0 : vectors ? 1 : 2;
    }
    keys.push_back({tier, kind, -score, f.steps, 0, static_cast<int>(v)});
  }
  interleave_families(keys, prior.features);
  for (const auto& k : keys)
    prior.order.push_back(k.index);
  prior.summary = known.empty()
                      ? std::string("no earlier points on this device: shallower variants first")
                      : cat("tuning database: ", prior.from_program,
                            " variants first from earlier runs of this program, ",
                            prior.from_similar, " from similar programs; cost model from ",
                            prior.model.observations(), " points of this device");
  return prior;
}

} // namespace tessera::explore
