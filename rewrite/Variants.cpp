#include "rewrite/Variants.h"

#include <atomic>
#include <chrono>
#include <exception>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "core/Error.h"
#include "core/Substitute.h"
#include "rewrite/Lower.h"
#include "rewrite/Pattern.h"
#include "rewrite/Shapes.h"
#include "rewrite/rules/Rules.h"

namespace tessera::rewrite {

namespace {

// The computing call under the layout operations that only rearrange the result (Join,
// Transpose, Map of those), with the path of those operations.
Expr find_compute(const Expr& e) {
  Expr cur = e;
  while (cur->kind == NodeKind::Call && cur->children.size() == 2 && is_layout_only(cur->callee()))
    cur = arg0(cur);
  return cur;
}

// Is `param` used in e only as the argument of Get(k)? (A tile of zipped inputs.)
bool only_through_get(const Expr& e, const Node* param) {
  if (e->kind == NodeKind::Call && e->callee()->kind == NodeKind::Get && e->children.size() == 2 &&
      e->children[1].get() == param)
    return true;
  if (e.get() == param)
    return false;
  for (const auto& c : e->children)
    if (!only_through_get(c, param))
      return false;
  return true;
}

// e with every Get(k) $ param replaced by stage $ (Get(k) $ param), one staged copy per k.
Expr stage_components(const Expr& e, const Node* param, const Expr& stage,
                      std::map<int64_t, Expr>& staged) {
  if (e->kind == NodeKind::Call && e->callee()->kind == NodeKind::Get && e->children.size() == 2 &&
      e->children[1].get() == param) {
    int64_t k = e->callee()->sizes[0].value();
    auto [it, fresh] = staged.try_emplace(k);
    if (fresh)
      it->second = call1(stage, e);
    return it->second;
  }
  std::vector<Expr> children;
  bool changed = false;
  for (const auto& c : e->children) {
    children.push_back(stage_components(c, param, stage, staged));
    changed |= !children.back().same_as(c);
  }
  return changed ? with_children(e, std::move(children)) : e;
}

Expr stage_components(const Expr& e, const Node* param, const Expr& stage) {
  std::map<int64_t, Expr> staged;
  return stage_components(e, param, stage, staged);
}

// The map levels a mapping assigns to the computing call's outermost maps.
struct Levels {
  std::vector<std::pair<MapKind, int>> levels; // outermost first
  bool stage_local = false; // copy each work-group's input tile to local memory first
};

Expr map_intermediates(const Expr& e, const Levels& m, std::size_t level);

// Assigns the mapping to the outermost maps of f (through lambdas whose body applies a map);
// deeper maps run sequentially. Returns null when f has fewer maps than levels.
Expr assign(const Expr& f, const Levels& m, std::size_t level) {
  if (level == m.levels.size())
    return lower_sequential(f);
  auto [kind, dim] = m.levels[level];
  if (f->kind == NodeKind::Map && f->map_kind == MapKind::Map) {
    Expr inner = assign(f->children[0], m, level + 1);
    return inner ? make_map(kind, dim, inner) : Expr();
  }
  if (f->kind == NodeKind::Lambda && f->params().size() == 1 && f->body()->kind == NodeKind::Call &&
      f->body()->children.size() == 2) {
    Expr g = assign(f->body()->callee(), m, level);
    if (!g)
      return {};
    Expr p = f->params()[0];
    Expr arg = arg0(f->body());
    bool entering_work_items =
        level > 0 && m.levels[level - 1].first == MapKind::Wrg && kind == MapKind::Lcl;
    if (m.stage_local && entering_work_items && mentions(arg, p.get())) {
      // The tile p is copied to local memory by the work-group, then read from there; a tile of
      // zipped inputs (a tuple of tiles, read through Get(k)) is copied component by component.
      std::vector<std::pair<MapKind, int>> copy_levels(m.levels.begin() + level, m.levels.end());
      Expr copy = identity_fun();
      for (auto it = copy_levels.rbegin(); it != copy_levels.rend(); ++it)
        copy = make_map(MapKind::Lcl, it->second, copy);
      Expr to_local = make_to_mem(AddressSpace::Local, copy);
      arg = only_through_get(arg, p.get()) ? stage_components(arg, p.get(), to_local)
                                           : replace_node(arg, p.get(), call1(to_local, p));
    }
    Expr mapped_arg = map_intermediates(arg, m, level);
    return mapped_arg ? make_lambda({p}, call1(g, mapped_arg)) : Expr();
  }
  return {};
}

// The intermediate computations in the argument of a mapped function (the earlier time steps
// of a temporally tiled tile) run on the same work-items, their results staged in local memory
// between MapLcl levels and in private memory for a sequential work-item.
Expr map_intermediates(const Expr& e, const Levels& m, std::size_t level) {
  if (e->kind != NodeKind::Call)
    return e;
  std::vector<Expr> children{e->callee()};
  for (const auto& a : e->call_args()) {
    children.push_back(map_intermediates(a, m, level));
    if (!children.back())
      return {};
  }
  const Expr& f = e->callee();
  if (f->kind == NodeKind::Map && f->map_kind == MapKind::Map && !is_layout_only(f)) {
    Expr mapped = assign(f, m, level);
    if (!mapped)
      return {};
    bool local = level < m.levels.size() && m.levels[level].first == MapKind::Lcl;
    // Local memory is the work-group's: only an intermediate that the whole work-group computes
    // (its MapLcl right inside the MapWrg) can live there. Inside another MapLcl, each work-item
    // of that MapLcl has its own tile, and one buffer for all of them would be a race.
    if (local && !(level > 0 && m.levels[level - 1].first == MapKind::Wrg))
      return {};
    children[0] = make_to_mem(local ? AddressSpace::Local : AddressSpace::Private, mapped);
  }
  return with_children(e, children);
}

// The program with its computing call mapped as `m`, or null.
Expr apply_levels(const Expr& program, const Levels& m) {
  Expr compute = find_compute(program->body());
  if (compute->kind != NodeKind::Call || compute->children.size() != 2)
    return {};
  Expr f = assign(compute->callee(), m, 0);
  if (!f)
    return {};
  Expr lowered_arg = lower_sequential(arg0(compute));
  Expr mapped = call1(f, lowered_arg);
  // Rebuild the layout chain above the computing call.
  std::function<Expr(const Expr&)> rebuild = [&](const Expr& e) -> Expr {
    if (e.same_as(compute))
      return mapped;
    return call1(e->callee(), rebuild(arg0(e)));
  };
  return make_lambda(program->params(), rebuild(program->body()));
}

// The levels of a tiled or streaming mapping. Tiled (d tiled dimensions): the outermost level
// gets the highest dimension, so that dimension 0 (neighbouring work-items) walks the
// innermost, contiguous index. Streaming: a grid of work-items around the marching map, which
// is sequential; dimension 0 walks x (columns x segments in 2-D; y x x, and z-segments in
// dimension 2, in 3-D), and the results of one step along x (factor) are unrolled, so that the
// window stays in registers.
Levels levels_of(const Mapping& m) {
  Levels l;
  const int d = m.dims;
  switch (m.kind) {
  case MappingKind::WorkGroups:
  case MappingKind::LocalMemory:
    for (int i = 0; i < d; ++i)
      l.levels.push_back({MapKind::Wrg, d - 1 - i});
    for (int i = 0; i < d; ++i)
      l.levels.push_back({MapKind::Lcl, d - 1 - i});
    l.stage_local = m.kind == MappingKind::LocalMemory;
    return l;
  case MappingKind::CoarsenedTiles:
    for (int i = 0; i < d; ++i)
      l.levels.push_back({MapKind::Glb, d - 1 - i});
    for (int i = 0; i < d; ++i)
      l.levels.push_back({MapKind::Seq, 0});
    return l;
  case MappingKind::Streaming:
    if (d == 2) {
      l.levels = {{MapKind::Glb, 0}, {MapKind::Glb, 1}, {MapKind::Seq, 0}};
      return l;
    }
    l.levels = {{MapKind::Glb, 1}, {MapKind::Glb, 0}};
    if (m.segment)
      l.levels.push_back({MapKind::Glb, 2});
    l.levels.push_back({MapKind::Seq, 0});
    if (m.factor)
      l.levels.push_back({MapKind::SeqUnroll, 0});
    return l;
  default:
    internal_error(cat("the ", mapping_kind_name(m.kind), " mapping has no map levels"));
  }
}

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
                        const Add& add) {
  TypeChecker types;
  types.apply(v.program, input_types(v.program));
  RuleContext ctx;
  ctx.types = &types;
  ctx.coarsening = options.coarsening;
  ctx.max_constant_bytes = options.max_constant_bytes;
  ctx.max_constant_args = options.max_constant_args;
  ctx.images = options.images;
  for (const auto& rule : completing_rules()) {
    const Expr& target = rule.mapping.on_plain_lowering ? plain : v.program;
    for (const auto& alt : rule.apply(target, ctx).alternatives)
      add(alt.replacement, v, rule.mapping.completes(alt.params));
  }
}

} // namespace

std::string LoweredVariants::summary() const {
  std::string s = cat(variants.size(), " executable variants from ", stats.summary(), "; ",
                      candidates, " lowered candidates, ", lowered_duplicates, " duplicates, ",
                      rejected_by_codegen, " rejected by the code generator");
  if (not_generated || not_lowered)
    s += cat(", deadline: ", not_lowered, " high-level variants not lowered, ", not_generated,
             " candidates not generated");
  return s + cat(", ", seconds, " s in all");
}

LoweredVariants lowered_variants(const Expr& program, const EnumerateOptions& options) {
  auto start = std::chrono::steady_clock::now();
  auto seconds = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::atomic<bool> cancelled{false};
  auto late = [&] {
    return cancelled || (options.deadline_seconds > 0 && seconds() > options.deadline_seconds);
  };
  // Progress from the calling thread only; false from the callback cancels like the deadline.
  auto report = [&](const char* phase, std::size_t done, std::size_t total) {
    if (options.on_progress && !options.on_progress({phase, done, total, seconds()}))
      cancelled = true;
  };
  LoweredVariants result;
  // The enumeration gets three quarters of the deadline: one that used it all would leave no
  // time to lower even the shallowest variants it found.
  EnumerateOptions high_options = options;
  high_options.deadline_seconds = 0.75 * options.deadline_seconds;
  auto rules = exploration_rules();
  rules.insert(rules.end(), options.extra_rules.begin(), options.extra_rules.end());
  Enumeration high = enumerate(program, rules, high_options);
  result.stats = high.stats;
  std::map<std::string, const Rule*> rule_of;
  for (const auto& r : rules)
    rule_of.emplace(r.name, &r);

  // The distinct lowered programs, in the order of the high-level variants.
  struct Candidate {
    Expr program;
    const Variant* from;
    Mapping mapping;
    std::vector<Step> after_mapping; // rules applied to the lowered program (glb-order)
  };
  std::vector<Candidate> candidates;
  ProgramSet tried;
  auto add = [&](const Expr& lowered, const Variant& from, const Mapping& mapping,
                 std::vector<Step> after_mapping = {}) {
    ++result.candidates;
    if (tried.insert(lowered))
      candidates.push_back({lowered, &from, mapping, std::move(after_mapping)});
    else
      ++result.lowered_duplicates;
  };
  for (std::size_t i = 0; i < high.variants.size(); ++i) {
    report("lowering", i, high.variants.size());
    // Without code generation (a lazy caller) lowering is cheap, and the variants of at most
    // one rewrite step (first in the enumeration's breadth-first order) are always lowered: a
    // deeper space never has fewer of them than a shallower one.
    const bool shallow = !options.check_generation && high.variants[i].history.size() <= 1;
    if (late() && !shallow) {
      result.not_lowered = high.variants.size() - i;
      break;
    }
    const Variant& v = high.variants[i];
    std::vector<Mapping> mappings = mappings_of(v, rule_of);
    if (mappings.empty()) {
      const Mapping global{MappingKind::Global};
      Expr lowered = lower_default(v.program);
      add(lowered, v, global);
      if (i == 0) {
        // The other orders of the global dimensions the lowering chose, for the program as
        // written (a program written with MapGlb gets them from the enumeration instead).
        if (!mentions_glb(v.program))
          for (auto& [reordered, step] : glb_orders(lowered))
            add(reordered, v, global, {std::move(step)});
        add_root_lowerings(v, lowered, options, add);
      }
      continue;
    }
    for (const auto& m : mappings)
      if (Expr mapped = apply_levels(v.program, levels_of(m)))
        add(mapped, v, m);
  }

  // Code generation decides which are executable; candidates are independent, so several
  // threads can generate them (expressions are immutable and shared read-only).
  enum Verdict : char { NotGenerated, Accepted, Rejected };
  std::vector<Verdict> verdicts(candidates.size(),
                                options.check_generation ? NotGenerated : Accepted);
  std::vector<std::string> reasons(candidates.size());
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_mutex;
  auto work = [&](bool caller) {
    for (std::size_t i = next++; i < candidates.size(); i = next++) {
      if (caller)
        report("generating kernels", i, candidates.size());
      if (late())
        return;
      try {
        options.check_generation(candidates[i].program);
        verdicts[i] = Accepted;
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

  for (std::size_t i = 0; i < candidates.size(); ++i) {
    switch (verdicts[i]) {
    case NotGenerated:
      ++result.not_generated;
      break;
    case Rejected:
      ++result.rejected_by_codegen;
      ++result.rejection_reasons[reasons[i]];
      break;
    case Accepted: {
      result.variants.push_back({candidates[i].program, candidates[i].from->history,
                                 candidates[i].mapping, candidates[i].after_mapping});
      break;
    }
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

} // namespace tessera::rewrite
