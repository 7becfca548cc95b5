// The emitter's boundary/interior split of the innermost global map body.
#include "codegen/Emitter.h"

#include <functional>
#include <map>

#include "core/Error.h"

namespace tessera::codegen {

// The body of the innermost MapGlb, when its indices need boundary handling (min/max/select
// guards), also gets an interior version in which every global index stays r away from the
// edges, for r = 1..4, and uses it when boundary handling disappears there:
//   if (interior) { fewer or no conditionals } else { full boundary handling }
// The interior version is a copy of the body specialised to the interior ranges of the loop
// variables (specialise, KernelIR.h): its expressions are still accesses, which the ranges
// simplify when they are printed, and lane mode's vectors then read with vloadN where the
// full version reads lane by lane. Both versions use the same variable names. The copy keeps
// the full version's decisions (whether lanes are vectorised, where they store), which hold
// on the interior as everywhere.
void Emitter::glb_body_with_interior(const std::function<void()>& body) {
  Block full = capture(body);
  int full_guards = count_guards(full);
  if (full_guards > 0 && options_.split_interior) {
    // The smallest margin r that removes the most conditionals; conditionals that do not
    // depend on the position (say, mirrored weights) stay in both versions.
    int best_guards = full_guards, best_r = 0;
    Block best;
    std::string best_condition;
    for (int r = 1; r <= 4 && best_guards > 0; ++r) {
      std::map<std::string, ArithExpr> interior;
      std::string condition;
      bool empty = false;
      for (const auto& loop : glb_loops_) {
        auto extent = loop.extent.as_constant();
        if (extent && *extent - 1 - r < r)
          empty = true; // no interior this narrow
        if (empty)
          break;
        interior[loop.var_name] = ArithExpr::var(loop.var_name, r, loop.extent - 1 - r);
        condition += cat(condition.empty() ? "" : " && ", loop.var_name, " >= ", r, " && ",
                         loop.var_name, " < ", printer_.arith(loop.extent - r));
      }
      if (empty)
        break;
      Block inner = specialise(full, interior);
      int guards = count_guards(inner);
      if (r > 1 && guards >= best_guards)
        break; // a wider margin removes nothing more
      if (guards < best_guards) {
        best_guards = guards;
        best_r = r;
        best = std::move(inner);
        best_condition = condition;
      }
    }
    if (best_r > 0 && options_.interior_only) {
      interior_margins_.push_back(best_r);
      if ((options_.colour_parity >= 0 && stride_by_colour()) || options_.interior_rows) {
        best = Block{Stmt::nest(cat("if (", best_condition, ")"), std::move(best))};
        interior_guarded_ = true;
      }
      append(std::move(best));
      if (colour_strided_ && !options_.colour_pair_copy.empty())
        append(colour_pair_copy(best_condition));
      return;
    }
    if (best_r > 0) {
      open_.back()->push_back(Stmt::if_else(best_condition, std::move(best), std::move(full)));
      return;
    }
  }
  body_without_interior_ = true;
  append(std::move(full)); // no interior version
}

// CodegenOptions::colour_parity: gid0 steps by 2 along each row, starting on the row's point of
// the colour, and the launch has half as many work-items along x (rounded up). Only where gid0
// is the innermost index of a constant extent and no lanes are in play; the caller guards the
// body (a row's last point may be past the interior).
bool Emitter::stride_by_colour() {
  const Loop* x = nullptr;
  for (const auto& loop : glb_loops_)
    if (loop.var_name == "gid0")
      x = &loop;
  auto extent = x ? x->extent.as_constant() : std::nullopt;
  if (!extent || lane_mode_ || launch_.local[0] != 0)
    return false;
  std::string row = cat(options_.colour_parity);
  for (const auto& loop : glb_loops_)
    if (loop.var_name != "gid0")
      row += cat(" + (int)get_global_id(", loop.var_name.substr(3), ")");
  preamble_.erase("const int gid0 = get_global_id(0);");
  preamble_.insert(cat("const int gid0 = 2 * (int)get_global_id(0) + ((", row, ") & 1);"));
  launch_.global[0] = (*extent + 1) / 2;
  colour_strided_ = true;
  return true;
}

// The pair's other point along x (gid0 ^ 1: the colour-strided gid0 is 2 i or 2 i + 1) keeps
// the copied input's value, where the interior condition holds for it.
Block Emitter::colour_pair_copy(const std::string& condition) {
  if (options_.in_place)
    internal_error("colour_pair_copy is for a kernel that does not run in place");
  if (!out_store_index_ || lane_mode_)
    internal_error("colour_pair_copy: the interior stores no scalar result");
  std::shared_ptr<const Memory> from; // the kernel's input of that name
  for (const auto& p : program_->params())
    if (auto bound = env_.find(p.get());
        bound != env_.end() && bound->second.view->kind == ViewKind::Memory &&
        bound->second.view->memory->name == options_.colour_pair_copy)
      from = bound->second.view->memory;
  if (!from || !(from->type == out_memory_->type))
    internal_error(cat("colour_pair_copy: no input named '", options_.colour_pair_copy,
                       "' of the output's type ", out_memory_->type));
  const ArithExpr pair = ArithExpr::var("pair0");
  const ArithExpr at = out_store_index_->substitute({{"gid0", pair}});
  std::string pair_condition = condition;
  for (std::size_t i = pair_condition.find("gid0"); i != std::string::npos;
       i = pair_condition.find("gid0", i))
    pair_condition.replace(i, 4, "pair0");
  Block copy{
      Stmt::line("const int pair0 = gid0 ^ 1;"),
      Stmt::nest(cat("if (", pair_condition, ")"),
                 Block{Stmt::line({lvalue(Access::read(out_memory_, at)), Piece::literal(" = "),
                                   Piece::scalar(Access::read(from, at)), Piece::literal(";")})})};
  return Block{Stmt::nest("", std::move(copy))};
}

int64_t Emitter::interior_margin() const {
  // One interior body under a MapGlb on every axis of the launch, one work-item per point.
  if (body_without_interior_ || interior_margins_.size() != 1 ||
      static_cast<int>(glb_extents_.size()) != launch_.dims)
    return 0;
  for (int d = 0; d < launch_.dims; ++d) {
    auto g = launch_.global[static_cast<std::size_t>(d)].as_constant();
    auto extent = glb_extents_.find(d);
    if (launch_.local[static_cast<std::size_t>(d)] != 0 || !g || extent == glb_extents_.end())
      return 0;
    const int64_t points = extent->second; // a colour-strided x: half as many work-items
    const int64_t work_items = d == 0 && colour_strided_ ? (points + 1) / 2 : points;
    if (*g != work_items || points < 2 * interior_margins_.front() + 1)
      return 0;
  }
  return interior_margins_.front();
}

int Emitter::count_guards(const Block& block) {
  return codegen::count_guards(block, printer_, functions_);
}

} // namespace tessera::codegen
