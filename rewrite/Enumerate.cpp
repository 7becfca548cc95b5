#include "rewrite/Enumerate.h"

#include <algorithm>
#include <random>

#include "core/Error.h"
#include "rewrite/Normalize.h"

namespace tessera::rewrite {

std::string EnumerationStats::cuts() const {
  std::vector<std::string> parts;
  if (stop != StopReason::None)
    parts.push_back(cat("stopped at ", describe(stop), " during depth ", depth_reached));
  if (not_expanded)
    parts.push_back(cat("frontier sampled: ", not_expanded, " variants not rewritten further"));
  if (exhausted)
    parts.push_back(cat("no new variants past depth ", depth_reached - 1));
  std::string s;
  for (const auto& p : parts)
    s += (s.empty() ? "" : "; ") + p;
  return s;
}

std::string EnumerationStats::summary() const {
  std::string s = cat(variants, " variants (depth ", depth_reached);
  if (depth_requested)
    s += cat(" of ", depth_requested);
  if (!per_depth.empty()) {
    s += ": ";
    for (std::size_t d = 0; d < per_depth.size(); ++d)
      s += cat(d ? " + " : "", per_depth[d]);
  }
  s += cat(", ", rewrites, " rewrites, ", duplicates, " duplicates");
  if (ill_typed)
    s += cat(", ", ill_typed, " ill-typed");
  s += cat(") in ", seconds, " s");
  if (std::string c = cuts(); !c.empty())
    s += "; " + c;
  return s;
}

bool ProgramSet::contains(const Expr& e, std::size_t hash) const {
  auto it = table_.find(hash);
  if (it == table_.end())
    return false;
  for (const auto& other : it->second)
    if (structurally_equal(other, e))
      return true;
  return false;
}

bool ProgramSet::insert(const Expr& e, std::size_t hash) {
  auto& bucket = table_[hash];
  for (const auto& other : bucket)
    if (structurally_equal(other, e))
      return false;
  bucket.push_back(e);
  ++size_;
  return true;
}

namespace {

// One enumeration: the variants found, the programs seen, and the limits it runs under.
struct Enumerator {
  const std::vector<Rule>& rules;
  const EnumerateOptions& options;
  WorkLimits& limits;
  Enumeration out;
  ProgramSet seen;
  RuleContext base;

  bool stopped() { return limits.reached(); }

  // Every rule at every node of the variant at `index`; new variants' indices go to `next`.
  void expand(std::size_t index, std::vector<std::size_t>& next) {
    EnumerationStats& stats = out.stats;
    Variant parent = out.variants[index]; // a copy: variants grows while we iterate
    TypeChecker types;
    types.apply(parent.program, input_types(parent.program));
    RuleContext ctx = base;
    ctx.types = &types;
    for_each_node(parent.program, [&](const Expr& node, const Position& at, bool inside) {
      if (stopped()) // at every node: a huge program's pass must not outlive the deadline
        return;
      ctx.inside_function = inside;
      ctx.below_program_body = at.size() > 1;
      for (const auto& rule : rules) {
        if (!rule.applies_to(node->kind))
          continue;
        RuleResult r = rule.apply(node, ctx);
        if (r.alternatives.empty()) {
          if (!r.why_not.empty())
            ++stats.not_applicable[rule.name + ": " + r.why_not];
          continue;
        }
        for (const auto& alt : r.alternatives) {
          if (stopped())
            return;
          ++stats.rewrites;
          Expr candidate = replace_at(parent.program, at, alt.replacement);
          // Duplicates first: only new programs need the (costlier) type check.
          std::size_t hash = structural_hash(candidate);
          if (seen.contains(candidate, hash)) {
            ++stats.duplicates;
            continue;
          }
          try {
            TypeChecker check;
            check.apply(candidate, input_types(candidate));
          } catch (const Error&) {
            ++stats.ill_typed;
            continue;
          }
          seen.insert(candidate, hash);
          Variant child{candidate, parent.history};
          child.history.push_back({rule.name, at, alt.params});
          out.variants.push_back(std::move(child));
          next.push_back(out.variants.size() - 1);
          if (out.variants.size() >= options.limit) {
            limits.stop(StopReason::Limit);
            return;
          }
        }
      }
    });
  }

  // Of the variants found at `depth`, the seeded sample options.frontier_limit rewrites further.
  void sample(std::vector<std::size_t>& next, int depth) {
    if (!options.frontier_limit || next.size() <= options.frontier_limit ||
        depth >= options.depth || stopped())
      return;
    std::mt19937 rng(options.seed + static_cast<uint32_t>(depth));
    std::shuffle(next.begin(), next.end(), rng);
    out.stats.not_expanded += next.size() - options.frontier_limit;
    next.resize(options.frontier_limit);
    std::sort(next.begin(), next.end());
  }

  void run(const Expr& program) {
    EnumerationStats& stats = out.stats;
    stats.depth_requested = options.depth;
    Expr start_program = beta_normalize(program);
    seen.insert(start_program);
    out.variants.push_back({start_program, {}});
    stats.per_depth.push_back(1);
    base.tile_sizes = options.tile_sizes;
    base.coarsening = options.coarsening;
    base.row_blocking = options.row_blocking;
    base.plane_sums_min_points = options.plane_sums_min_points;
    base.temporal_steps = options.temporal_steps;
    base.target = options.target;
    std::vector<std::size_t> frontier{0};
    // Strategies inside rules poll the same limits (poll_limits throws Stopped).
    LimitsScope scope(limits);
    for (int depth = 1; depth <= options.depth && !frontier.empty() && !stopped(); ++depth) {
      std::vector<std::size_t> next;
      stats.depth_reached = depth;
      try {
        for (std::size_t index : frontier) {
          if (options.on_progress &&
              !options.on_progress(
                  {cat("depth ", depth), out.variants.size(), 0, limits.seconds()}))
            limits.stop(StopReason::Interrupted);
          if (stopped())
            break;
          expand(index, next);
        }
      } catch (const Stopped&) {
      }
      stats.per_depth.push_back(next.size());
      if (next.empty() && !stopped())
        stats.exhausted = true;
      sample(next, depth);
      frontier = std::move(next);
    }
    stats.stop = limits.reason();
    stats.variants = out.variants.size();
    stats.seconds = limits.seconds();
  }
};

} // namespace

Enumeration enumerate(const Expr& program, const std::vector<Rule>& rules,
                      const EnumerateOptions& options) {
  WorkLimits limits(options.deadline_seconds, options.cancel);
  return enumerate(program, rules, options, limits);
}

Enumeration enumerate(const Expr& program, const std::vector<Rule>& rules,
                      const EnumerateOptions& options, WorkLimits& limits) {
  Enumerator e{rules, options, limits, {}, {}, {}};
  e.run(program);
  return std::move(e.out);
}

} // namespace tessera::rewrite
