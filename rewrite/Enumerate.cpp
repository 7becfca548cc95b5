#include "rewrite/Enumerate.h"

#include <chrono>
#include <unordered_map>

#include "core/Error.h"
#include "rewrite/Normalize.h"

namespace tessera::rewrite {

std::string EnumerationStats::summary() const {
  std::string s = cat(variants, " variants (depth ", depth_reached, ", ", rewrites, " rewrites, ",
                      duplicates, " duplicates");
  if (ill_typed)
    s += cat(", ", ill_typed, " ill-typed");
  s += cat(") in ", seconds, " s");
  if (hit_limit)
    s += "; stopped at the variant limit";
  return s;
}

namespace {

// Distinct programs by structural hash, with structural equality on collisions.
class Seen {
public:
  bool insert(const Expr& e) {
    auto& bucket = table_[structural_hash(e)];
    for (const auto& other : bucket)
      if (structurally_equal(other, e))
        return false;
    bucket.push_back(e);
    return true;
  }

private:
  std::unordered_map<std::size_t, std::vector<Expr>> table_;
};

} // namespace

Enumeration enumerate(const Expr& program, const std::vector<Rule>& rules,
                      const EnumerateOptions& options) {
  auto start = std::chrono::steady_clock::now();
  Enumeration out;
  Seen seen;
  Expr start_program = beta_normalize(program);
  seen.insert(start_program);
  out.variants.push_back({start_program, {}});
  std::vector<std::size_t> frontier{0};
  RuleContext base;
  base.tile_sizes = options.tile_sizes;
  base.coarsening = options.coarsening;
  base.temporal_steps = options.temporal_steps;

  for (int depth = 1; depth <= options.depth && !frontier.empty() && !out.stats.hit_limit;
       ++depth) {
    std::vector<std::size_t> next;
    for (std::size_t index : frontier) {
      // Copy: variants grows while we iterate.
      Variant parent = out.variants[index];
      TypeChecker types;
      types.apply(parent.program, input_types(parent.program));
      RuleContext ctx = base;
      ctx.types = &types;
      for_each_node(parent.program, [&](const Expr& node, const Position& at, bool inside) {
        if (out.stats.hit_limit)
          return;
        ctx.inside_function = inside;
        for (const auto& rule : rules) {
          RuleResult r = rule.apply(node, ctx);
          if (r.alternatives.empty()) {
            if (!r.why_not.empty())
              ++out.stats.not_applicable[rule.name + ": " + r.why_not];
            continue;
          }
          for (const auto& alt : r.alternatives) {
            ++out.stats.rewrites;
            Expr candidate = replace_at(parent.program, at, alt.replacement);
            try {
              TypeChecker check;
              check.apply(candidate, input_types(candidate));
            } catch (const Error&) {
              ++out.stats.ill_typed;
              continue;
            }
            if (!seen.insert(candidate)) {
              ++out.stats.duplicates;
              continue;
            }
            Variant child{candidate, parent.history};
            child.history.push_back({rule.name, at, alt.params});
            out.variants.push_back(std::move(child));
            next.push_back(out.variants.size() - 1);
            if (out.variants.size() >= options.limit) {
              out.stats.hit_limit = true;
              return;
            }
          }
        }
      });
    }
    out.stats.depth_reached = depth;
    frontier = std::move(next);
  }
  out.stats.variants = out.variants.size();
  out.stats.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

} // namespace tessera::rewrite
