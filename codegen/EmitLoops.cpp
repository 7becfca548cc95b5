// The emitter's loops: sequential (optionally unrolled) and parallel maps mapped to global,
// work-group and local ids.
#include "codegen/Emitter.h"

#include <algorithm>
#include <functional>

#include "core/Error.h"

namespace tessera::codegen {

void Emitter::sequential_loop(const ArithExpr& n, bool unroll, const std::string& prefix,
                              const std::function<void(ArithExpr)>& body) {
  // Every form runs inside one work-item: global and work-group maps may not appear in it.
  if (unroll) {
    auto count = n.as_constant();
    if (!count)
      user_error("an unrolled loop needs a constant trip count, got " + n.to_string());
    ++seq_depth_;
    for (int64_t i = 0; i < *count; ++i)
      body(ArithExpr(i));
    --seq_depth_;
    return;
  }
  if (auto count = n.as_constant(); count && *count == 1) {
    ++seq_depth_;
    body(ArithExpr(0)); // a single iteration needs no loop
    --seq_depth_;
    return;
  }
  std::string name = fresh(prefix);
  ArithExpr var = ArithExpr::var(name, 0, n - 1);
  open(cat("for (int ", name, " = 0; ", name, " < ", printer_.arith(n), "; ++", name, ")"));
  ++seq_depth_;
  body(var);
  --seq_depth_;
  close();
}

void Emitter::parallel_loop(const Node& map, const ArithExpr& n,
                            const std::function<void(ArithExpr)>& body) {
  if (lane_mode_) {
    cannot_vectorise("a parallel map inside a vectorised work-item");
    return;
  }
  int d = map.dim;
  launch_.dims = std::max(launch_.dims, d + 1);
  switch (map.map_kind) {
  case MapKind::Glb: {
    if (glb_used_[d])
      user_error(cat("MapGlb(", d, ") is nested inside another MapGlb(", d,
                     "): each dimension can be used once"));
    if (wrg_depth_ > 0 || lcl_depth_ > 0 || seq_depth_ > 0)
      user_error(cat("MapGlb(", d, ") cannot be nested inside MapWrg, MapLcl or MapSeq"));
    glb_used_[d] = true;
    if (auto extent = n.as_constant())
      glb_extents_[d] = *extent;
    std::string name = cat("gid", d);
    ArithExpr var = ArithExpr::var(name, 0, n - 1);
    int64_t local = options_.local_size[d];
    launch_.local[d] = local;
    launch_.global[d] = local > 0 ? (n + (local - 1)) / local * local : n;
    const auto [gap_at, gap_skip] = options_.index_gaps[static_cast<std::size_t>(d)];
    if (gap_skip > 0) {
      if (options_.interior_only || local > 0)
        user_error("an index gap applies to a plain kernel, not an interior version or one with "
                   "a work-group size");
      const auto extent = n.as_constant();
      if (!extent || gap_at <= 0 || 2 * gap_at + gap_skip != *extent)
        user_error(cat("the index gap {", gap_at, ", ", gap_skip, "} of dimension ", d,
                       " does not leave two ends of ", gap_at, " points of its extent ",
                       printer_.arith(n)));
      preamble_.insert(cat("const int ", name, " = (int)get_global_id(", d,
                           ") + ((int)get_global_id(", d, ") >= ", gap_at, " ? ", gap_skip,
                           " : 0);"));
    } else {
      preamble_.insert(cat("const int ", name, " = get_global_id(", d, ");"));
    }
    bool guarded = local > 0 && prove_divisible(n, local) != Truth::Yes;
    if (guarded)
      open(cat("if (", name, " < ", printer_.arith(n), ")"));
    ++glb_depth_;
    glb_loops_.push_back({name, var, n});
    if (contains_map(map.children[0], MapKind::Glb))
      body(var);
    else
      glb_body_with_interior([&] { body(var); });
    glb_loops_.pop_back();
    --glb_depth_;
    if (guarded)
      close();
    glb_used_[d] = false;
    return;
  }
  case MapKind::Wrg: {
    if (glb_depth_ > 0 || lcl_depth_ > 0 || seq_depth_ > 0)
      user_error(cat("MapWrg(", d, ") cannot be nested inside MapGlb, MapLcl or MapSeq: ",
                     "work-groups are the outermost level of the mapping"));
    if (wrg_depth_ > 0 && wrg_dims_[d])
      user_error(cat("MapWrg(", d, ") is nested inside another MapWrg(", d, ")"));
    // Without an explicit size the work-group is as wide as the widest MapLcl(d) (one
    // work-item without one), known once the kernel is built (choose_work_groups).
    if (options_.local_size[d] > 0) {
      launch_.local[d] = options_.local_size[d];
      launch_.global[d] = n * options_.local_size[d];
    } else {
      open_wrg_[d] = n;
    }
    std::string name = cat("wg", d);
    preamble_.insert(cat("const int ", name, " = get_group_id(", d, ");"));
    wrg_dims_[d] = true;
    ++wrg_depth_;
    body(ArithExpr::var(name, 0, n - 1));
    --wrg_depth_;
    wrg_dims_[d] = false;
    return;
  }
  case MapKind::Lcl: {
    if (wrg_depth_ == 0)
      user_error(cat("MapLcl(", d, ") must be nested inside MapWrg"));
    if (lcl_dims_[d])
      user_error(cat("MapLcl(", d, ") is nested inside another MapLcl(", d, ")"));
    auto extent = n.as_constant();
    if (!extent && options_.local_size[d] == 0)
      user_error(cat("MapLcl(", d, ") over ", n.to_string(),
                     " elements: a work-group size is needed; set CodegenOptions::local_size"));
    if (extent)
      lcl_extent_[d] = std::max(lcl_extent_[d], *extent);
    int64_t local = launch_.local[d] > 0 ? launch_.local[d] : 1;
    std::string lid = cat("lid", d);
    preamble_.insert(cat("const int ", lid, " = get_local_id(", d, ");"));
    lcl_dims_[d] = true;
    ++lcl_depth_;
    if (wrg_dims_[d] && open_wrg_[d]) {
      // The work-group will be at least this wide: a guard, dropped where it is exactly this.
      Block inner = capture([&] { body(ArithExpr::var(lid, 0, n - 1)); });
      open_.back()->push_back(Stmt::local_guard(d, *extent, std::move(inner)));
    } else if (extent && *extent == local) {
      body(ArithExpr::var(lid, 0, n - 1));
    } else if (extent && *extent < local) {
      open(cat("if (", lid, " < ", *extent, ")"));
      body(ArithExpr::var(lid, 0, n - 1));
      close();
    } else {
      std::string name = fresh("l");
      open(cat("for (int ", name, " = ", lid, "; ", name, " < ", printer_.arith(n), "; ", name,
               " += ", local, ")"));
      body(ArithExpr::var(name, 0, n - 1));
      close();
    }
    --lcl_depth_;
    lcl_dims_[d] = false;
    return;
  }
  default:
    internal_error("parallel_loop of a sequential map");
  }
}

void Emitter::choose_work_groups() {
  for (std::size_t d = 0; d < 3; ++d)
    if (open_wrg_[d]) {
      launch_.local[d] = lcl_extent_[d] > 0 ? lcl_extent_[d] : 1;
      launch_.global[d] = *open_wrg_[d] * launch_.local[d];
    }
  body_ = resolve_local_guards(body_, launch_.local);
}

} // namespace tessera::codegen
