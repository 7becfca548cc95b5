#include "rewrite/Variants.h"

#include <atomic>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/Error.h"
#include "core/Substitute.h"
#include "core/WorkItemMemory.h"
#include "rewrite/Lower.h"
#include "rewrite/MapLevels.h"
#include "rewrite/Pattern.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {
// What the derivation's steps tell the mapping stage (their rules' MappingTraits): the numbers
// of tiled dimensions (in a program of several steps they may belong to different steps; the
// mappings that do not fit the computing call fail to apply) and the first streaming step's
// mapping.
struct Tiling {
  std::set<int> dims;
  std::optional<Mapping> streaming;
};

Tiling tiling_of(const Variant& v, const std::map<std::string, const Rule*>& rules) {
  Tiling t;
  for (const auto& step : v.history) {
    auto it = rules.find(step.rule);
    if (it == rules.end())
      continue;
    const MappingTraits& traits = it->second->mapping;
    if (traits.tiled_dims)
      if (int d = traits.tiled_dims(step.params); d > 0)
        t.dims.insert(d);
    if (traits.streaming && !t.streaming)
      t.streaming = traits.streaming(step.params);
  }
  return t;
}

// The mapping strategies for a high-level variant: none (the default lowering) when the
// computing call was not tiled (no rearrangement of its result above it), streaming when it was
// streamed (the result is transposed back), otherwise the tiled mappings for each number of
// tiled dimensions of the derivation.
std::vector<Mapping> mappings_of(const Variant& v,
                                 const std::map<std::string, const Rule*>& rules) {
  Tiling tiling = tiling_of(v, rules);
  const Expr& body = v.program->body();
  Expr compute = find_compute(body);
  if (tiling.dims.empty() || compute.same_as(body))
    return {};
  if (tiling.streaming && body->kind == NodeKind::Call &&
      body->callee()->kind == NodeKind::Transpose)
    return {*tiling.streaming};
  std::vector<Mapping> all;
  for (int d : tiling.dims)
    for (MappingKind k :
         {MappingKind::WorkGroups, MappingKind::LocalMemory, MappingKind::CoarsenedTiles}) {
      Mapping m{k};
      m.dims = d;
      all.push_back(m);
    }
  return all;
}

bool mentions_glb(const Expr& e) {
  if (e->kind == NodeKind::Map && e->map_kind == MapKind::Glb)
    return true;
  for (const auto& c : e->children)
    if (mentions_glb(c))
      return true;
  return false;
}

// The other orders of the outermost MapGlb nest of a lowered program (glb-order), each with
// its step.
std::vector<std::pair<Expr, Step>> glb_orders(const Expr& lowered) {
  static const Rule rule = thread_mapping_rules().front();
  std::vector<std::pair<Expr, Step>> orders;
  RuleContext ctx;
  for_each_node(lowered, [&](const Expr& node, const Position& at, bool) {
    if (!orders.empty())
      return;
    for (auto& alt : rule.apply(node, ctx).alternatives)
      orders.push_back(
          {replace_at(lowered, at, alt.replacement), Step{rule.name, at, std::move(alt.params)}});
  });
  return orders;
}

// The rules that complete a whole program at its root (completing_rules: vectorize-4 and
// coarsening on the high-level program, then the placements of one input in __constant memory
// or as an image on the plain lowering, where the device allows them), each alternative with
// the mapping its rule declares.
template <class Add>
void add_root_lowerings(const Variant& v, const Expr& plain, const EnumerateOptions& options,
                        EnumerationStats& stats, const Add& add) {
  TypeChecker types;
  types.apply(v.program, input_types(v.program));
  RuleContext ctx;
  ctx.types = &types;
  ctx.coarsening = options.coarsening;
  ctx.target = options.target;
  for (const auto& rule : completing_rules()) {
    const Expr& target = rule.mapping.on_plain_lowering ? plain : v.program;
    RuleResult r = rule.apply(target, ctx);
    if (r.alternatives.empty() && !r.why_not.empty()) // why its family is absent
      ++stats.not_applicable[rule.name + ": " + r.why_not];
    for (const auto& alt : r.alternatives)
      add(alt.replacement, v, rule.mapping.completes(alt.params));
  }
}

// The default lowering of a variant without mappings; for the program itself (`first`) also
// the other orders of its global dimensions and the root completions. The program's own
// lowerings are not cut by the deadline (a deadline that passed during the enumeration still
// leaves them: the baseline and its plain alternatives); its completions are by the cancel flag,
// its default lowering, the baseline, by nothing (there is no exploration without it).
template <class Add>
void lower_program(const Variant& v, bool first, const EnumerateOptions& options,
                   EnumerationStats& stats, const Add& add) {
  const Mapping global{MappingKind::Global};
  Expr lowered;
  WorkLimits none, cancel_only(0, options.cancel);
  {
    std::optional<LimitsScope> unpolled;
    if (first)
      unpolled.emplace(none);
    lowered = lower_default(v.program);
  }
  add(lowered, v, global);
  if (!first)
    return;
  LimitsScope completions(cancel_only);
  // The other orders of the global dimensions the lowering chose, for the program as written
  // (a program written with MapGlb gets them from the enumeration instead).
  if (!mentions_glb(v.program))
    for (auto& [reordered, step] : glb_orders(lowered))
      add(reordered, v, global, {std::move(step)});
  add_root_lowerings(v, lowered, options, stats, add);
}

// Why an intermediate the lowered program keeps in a work-item's private memory (toPrivate) is
// too large: more than the target's max_private_elements values (core/Target.h), which the code
// generator would refuse (earlier steps that a lowering computes whole inside every
// work-item); "" when none is.
std::string private_intermediate_too_large(const Expr& lowered, int64_t most) {
  std::vector<Expr> stored;
  for_each_node(lowered, [&](const Expr& node, const Position&, bool) {
    if (node->kind == NodeKind::Call && node->callee()->kind == NodeKind::ToMem &&
        node->callee()->space == AddressSpace::Private)
      stored.push_back(node);
  });
  if (stored.empty())
    return "";
  TypeChecker types;
  try {
    types.apply(lowered, input_types(lowered));
  } catch (const Error&) {
    return ""; // the code generator's check decides
  }
  for (const auto& s : stored) {
    try {
      const Type& type = types.type_of(s);
      auto count = type.scalar_count().as_constant();
      if (count && *count > most)
        return cat("the intermediate of type ", type, " would need a private array of ", *count,
                   " elements per work-item (at most ", most, ")");
    } catch (const Error&) {
    }
  }
  return "";
}

// A lowered program to be checked by the code generator, with what it came from.
struct Candidate {
  Expr program;
  const Variant* from;
  Mapping mapping;
  std::vector<Step> after_mapping; // rules applied to the lowered program (glb-order)
};

enum Verdict : char { NotGenerated, Accepted, Rejected };

// The code generator's verdict on every candidate (options.check_generation; without it every
// candidate is accepted), the rejections' messages in `reasons`; those the limits left out are
// NotGenerated. `report(done, total)` is called from the calling thread.
template <class Report>
std::vector<Verdict> generate(const std::vector<Candidate>& candidates,
                              const EnumerateOptions& options, WorkLimits& limits,
                              const Report& report, std::vector<std::string>& reasons) {
  // Code generation decides which are executable; candidates are independent, so several
  // threads can generate them (expressions are immutable and shared read-only).
  std::vector<Verdict> verdicts(candidates.size(),
                                options.check_generation ? NotGenerated : Accepted);
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&](bool caller) {
    LimitsScope worker_scope(limits);
    for (std::size_t i = next++; i < candidates.size(); i = next++) {
      if (caller)
        report("generating kernels", i, candidates.size());
      if (limits.reached())
        return;
      try {
        options.check_generation(candidates[i].program);
        verdicts[i] = Accepted;
      } catch (const Stopped&) {
        return; // the code generator polled the limits (verdict: not generated)
      } catch (const Error& e) {
        verdicts[i] = Rejected;
        reasons[i] = e.what();
      } catch (...) {
        std::lock_guard lock(failure_mutex);
        if (!failure)
          failure = std::current_exception();
        next = candidates.size();
        return;
      }
    }
  };
  std::size_t threads = options.threads ? static_cast<std::size_t>(options.threads)
                                        : std::max(1u, std::thread::hardware_concurrency());
  threads = std::min(threads, std::max<std::size_t>(1, candidates.size()));
  if (!options.check_generation)
    next = candidates.size(), threads = 1; // nothing to generate
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < threads; ++t)
    helpers.emplace_back(work, false);
  work(true);
  for (auto& h : helpers)
    h.join();
  if (failure)
    std::rethrow_exception(failure);
  return verdicts;
}

} // namespace

std::string LoweredVariants::summary() const {
  std::string s = cat(variants.size(), " executable variants from ", stats.summary(), "; ",
                      candidates, " lowered candidates, ", lowered_duplicates, " duplicates, ",
                      rejected_by_codegen, " rejected by the code generator");
  if (not_generated || not_lowered)
    s += cat(", cut by ", describe(stop), ": ", not_lowered, " high-level variants not lowered, ",
             not_generated, " candidates not generated");
  return s + cat(", ", seconds, " s in all");
}

LoweredVariants lowered_variants(const Expr& program, const EnumerateOptions& options) {
  // One set of limits for every phase: the deadline and cancel flag of options, polled by the
  // enumeration, inside every lowering and between the generated candidates.
  WorkLimits limits(options.deadline_seconds, options.cancel);
  // Progress from the calling thread only; false from the callback cancels like the flag.
  auto report = [&](const char* phase, std::size_t done, std::size_t total) {
    if (options.on_progress && !options.on_progress({phase, done, total, limits.seconds()}))
      limits.stop(StopReason::Interrupted);
  };
  LoweredVariants result;
  // The enumeration gets three quarters of the deadline: one that used it all would leave no
  // time to lower even the shallowest variants it found.
  WorkLimits enumeration_limits(limits, 0.75);
  auto rules = exploration_rules();
  rules.insert(rules.end(), options.extra_rules.begin(), options.extra_rules.end());
  Enumeration high = enumerate(program, rules, options, enumeration_limits);
  result.stats = high.stats;
  if (enumeration_limits.reason() == StopReason::Interrupted)
    limits.stop(StopReason::Interrupted);
  std::map<std::string, const Rule*> rule_of;
  for (const auto& r : rules)
    rule_of.emplace(r.name, &r);

  // The distinct lowered programs, in the order of the high-level variants.
  std::vector<Candidate> candidates;
  ProgramSet tried;
  auto add = [&](const Expr& lowered, const Variant& from, const Mapping& mapping,
                 std::vector<Step> after_mapping = {}) {
    ++result.candidates;
    // A computation left without a mapping runs nowhere: the code generator would refuse it,
    // so it is not offered even where the caller generates kernels on demand.
    auto reject = [&](const std::string& why) {
      ++result.rejected_by_codegen;
      ++result.rejection_reasons[why];
      result.rejected.push_back({{lowered, from.history, mapping, after_mapping}, why});
    };
    if (Expr high = unlowered_computation(lowered))
      return reject("a computation without a mapping");
    if (std::string why =
            private_intermediate_too_large(lowered, options.target.max_private_elements);
        !why.empty())
      return reject(why);
    if (tried.insert(lowered))
      candidates.push_back({lowered, &from, mapping, std::move(after_mapping)});
    else
      ++result.lowered_duplicates;
  };
  // The program itself is always lowered (the baseline and its completions); every other
  // variant while the limits allow, polled inside its lowering too.
  LimitsScope scope(limits);
  for (std::size_t i = 0; i < high.variants.size(); ++i) {
    report("lowering", i, high.variants.size());
    if (i > 0 && limits.reached()) {
      result.not_lowered = high.variants.size() - i;
      break;
    }
    const Variant& v = high.variants[i];
    try {
      std::vector<Mapping> mappings = i > 0 ? mappings_of(v, rule_of) : std::vector<Mapping>{};
      if (i == 0 || mappings.empty()) {
        lower_program(v, i == 0, options, result.stats, add);
        continue;
      }
      for (const auto& m : mappings)
        if (Expr mapped = apply_mapping(v.program, m, options.target))
          add(mapped, v, m);
    } catch (const Stopped&) { // the baseline is in: its lowering is not polled (lower_program)
      result.not_lowered = high.variants.size() - i;
      break;
    }
  }

  std::vector<std::string> reasons(candidates.size());
  std::vector<Verdict> verdicts = generate(candidates, options, limits, report, reasons);
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    switch (verdicts[i]) {
    case NotGenerated:
      ++result.not_generated;
      break;
    case Rejected:
      ++result.rejected_by_codegen;
      ++result.rejection_reasons[reasons[i]];
      result.rejected.push_back({{candidates[i].program, candidates[i].from->history,
                                  candidates[i].mapping, candidates[i].after_mapping},
                                 reasons[i]});
      break;
    case Accepted: {
      result.variants.push_back({candidates[i].program, candidates[i].from->history,
                                 candidates[i].mapping, candidates[i].after_mapping});
      break;
    }
    }
  }
  result.stop = limits.reason() != StopReason::None ? limits.reason() : result.stats.stop;
  result.seconds = limits.seconds();
  return result;
}

} // namespace tessera::rewrite
