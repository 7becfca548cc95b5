// The variant enumerator: applies rules breadth-first at every position up to a depth,
// removes duplicates by structural hash, and reports what it found and why branches were cut.
//
// Branches are cut by: the depth; the variant limit (enumeration stops when `limit` distinct
// variants are found); the deadline (it stops when `deadline_seconds` have passed) and the
// cancel flag (core/WorkLimits.h: one object with the stop reason, checked at every node of every
// variant rewritten, so that either ends the work within a small overrun); the frontier
// limit (of the variants found at one depth, only a seeded sample of `frontier_limit` is
// rewritten further; the others stay in the result); duplicates (a result seen before is not
// rewritten again); and rules that do not apply (counted per rule and reason). The statistics
// say which of these happened, and how many variants each depth added.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/WorkLimits.h"
#include "rewrite/Rule.h"

namespace tessera::rewrite {

// What a long enumeration is doing, for a progress display: "depth 2" with the variants found
// so far, "lowering" or "generating kernels" with done/total.
struct EnumerationProgress {
  std::string phase;
  std::size_t done = 0, total = 0; // total 0: not known
  double seconds = 0;
};

struct EnumerateOptions {
  int depth = 4;
  // Stop after this many distinct variants (stop reason Limit). The default bounds an
  // enumeration without a deadline at any depth (the catalog's spaces grow about 2.5x a depth:
  // enumerate_variants(p, 99) of a 1-D stencil reaches it at depth 7, lowered and generated in
  // seconds); more is beyond any exploration's budget.
  std::size_t limit = 10000;
  std::vector<int64_t> tile_sizes{4, 8, 16, 32, 64};
  std::vector<int64_t> coarsening{2, 4};
  // stream-nd's results along y per work-item of a 2.5-D march of partial sums (rows=c): on an
  // H200 the 27-point box and the 3-D stars ran fastest at 4 or 8 (compile/DeviceLimits.h adds
  // a CPU's 16 and 32).
  std::vector<int64_t> row_blocking{2, 4, 8};
  // stream-nd offers partial sums by plane (sums=1, rewrite/rules/PlaneSums.h) for window
  // functions of at least this many points: the large stencils, bound by arithmetic, whose
  // windows do not fit in registers whole. Smaller ones keep their rotating window alone. A GPU
  // lowers it to 13 (compile/DeviceLimits.h: measured to win there from 13 points).
  int64_t plane_sums_min_points = 28;
  // The device the variants are for (constant memory and images for the placements, local
  // memory and registers for the streaming forms, private arrays): the portable target by
  // default, compile/DeviceLimits.h's apply_device_limits for a device.
  Target target;
  // Rules of the layers above, enumerated with exploration_rules() (the explorer passes
  // thomas-to-pcr, which builds with the DSL: compile/TridiagonalRules.h).
  std::vector<Rule> extra_rules;
  std::vector<int64_t> temporal_steps{2, 3, 4};
  // Stop after this many seconds (0: no deadline). lowered_variants counts its lowering too.
  double deadline_seconds = 0;
  // Stop when it becomes true (e.g. the Ctrl-C flag of tools/Interrupt.h); null: never.
  const std::atomic<bool>* cancel = nullptr;
  // Rewrite at most this many of the variants found at each depth further, a sample drawn with
  // `seed` (0: all of them). Reaches deep variants of spaces too big to enumerate completely.
  std::size_t frontier_limit = 0;
  uint32_t seed = 1;
  // Threads with which lowered_variants generates the candidates' kernels (0: one per core).
  int threads = 1;
  // lowered_variants calls it on every candidate and drops those for which it throws
  // tessera::Error: the code generator's check, set by a layer that sees both rewrite and codegen
  // (explore::executable_variants). Called from `threads` threads at once. Empty: every distinct
  // candidate is returned unchecked (cheap), for a caller that generates kernels on demand
  // anyway (the explorer's lazy space).
  std::function<void(const Expr&)> check_generation;
  // Called from the calling thread between units of work (a frontier variant, a lowering, a
  // generated candidate); returning false stops the enumeration as the cancel flag would (stop
  // reason Interrupted). Keep it cheap: it is called often.
  std::function<bool(const EnumerationProgress&)> on_progress;
};

struct EnumerationStats {
  std::size_t variants = 0;   // distinct programs found (including the original)
  std::size_t rewrites = 0;   // rule applications attempted that produced a program
  std::size_t duplicates = 0; // results already seen
  std::size_t ill_typed = 0;  // results rejected by the type checker (a rule bug if > 0)
  // Why the enumeration stopped before its depth: the variant limit (Limit), the deadline, or
  // the cancel flag / a progress callback that returned false (Interrupted); None: it did not.
  StopReason stop = StopReason::None;
  // True when a depth found nothing new: every variant up to that depth was found (unless the
  // frontier was sampled).
  bool exhausted = false;
  int depth_requested = 0;
  int depth_reached = 0;              // the deepest level explored (completely or not)
  std::vector<std::size_t> per_depth; // new distinct variants per depth; [0] is the original
  std::size_t not_expanded = 0;       // variants left out of the frontier by frontier_limit
  double seconds = 0;
  std::map<std::string, std::size_t> not_applicable; // rule -> "why not" counts, summarised
  // "N variants (depth d of D: 1 + 26 + 357 + ..., R rewrites, U duplicates) in S s; <cuts>"
  std::string summary() const;
  // Why branches were cut, one clause each (empty when the enumeration was complete).
  std::string cuts() const;
};

struct Enumeration {
  std::vector<Variant> variants; // variants[0] is the original program
  EnumerationStats stats;
};

// Under the limits of options (deadline_seconds, cancel, limit).
Enumeration enumerate(const Expr& program, const std::vector<Rule>& rules,
                      const EnumerateOptions& options = {});
// Under `limits` (their deadline and cancel flag; options.limit still counts): the work of a
// caller that shares them with later phases (lowered_variants).
Enumeration enumerate(const Expr& program, const std::vector<Rule>& rules,
                      const EnumerateOptions& options, WorkLimits& limits);

// A set of programs up to structural equality (hash buckets, structural equality on collision).
class ProgramSet {
public:
  bool contains(const Expr& e) const { return contains(e, structural_hash(e)); }
  bool contains(const Expr& e, std::size_t hash) const;
  // False when an equal program was already there. `hash` is structural_hash(e).
  bool insert(const Expr& e) { return insert(e, structural_hash(e)); }
  bool insert(const Expr& e, std::size_t hash);
  std::size_t size() const { return size_; }

private:
  std::unordered_map<std::size_t, std::vector<Expr>> table_;
  std::size_t size_ = 0;
};

} // namespace tessera::rewrite
