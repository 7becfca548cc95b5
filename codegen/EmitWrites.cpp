// The emitter's writes: computations printed straight into their destination view, the
// computing primitives (Map, Reduce, Iterate, user functions) and single assignments.
#include "codegen/Emitter.h"

#include <algorithm>
#include <optional>

#include "core/Error.h"
#include "core/Fields.h"
#include "core/Substitute.h"

namespace tessera::codegen {

void Emitter::write(const Expr& e, const View& dest) {
  if (lane_failure_)
    return; // lane mode failed: its statements are dropped
  if (e->kind != NodeKind::Call) {
    copy(value(e), dest);
    return;
  }
  const Expr& f = e->callee();
  auto args = e->call_args();
  if (args.size() == 1 && is_layout_only(f)) {
    // A rearrangement of the result: write the argument through the inverse view.
    if (View through = output_view(f, dest, types_.check(args[0]))) {
      write(args[0], through);
      return;
    }
  }
  switch (f->kind) {
  case NodeKind::Lambda: {
    auto params = f->params();
    for (std::size_t i = 0; i < params.size(); ++i)
      env_.insert_or_assign(params[i].get(), value(args[i]));
    write(f->body(), dest);
    return;
  }
  default:
    break;
  }
  std::vector<Operand> operands;
  for (const auto& a : args)
    operands.push_back(value(a));
  apply_write(f, operands, dest);
}

// Where the argument of a rearrangement f is written so that f's result lands in dest:
//   Join      arg element (i, j) -> dest[i*m + j]       Split(k)  arg element k -> dest[k/m][k%m]
//   Transpose arg element (i, j) -> dest[j][i]          Map(g)    arg element i -> through g at
//   dest[i]
//   Drop(l, r) arg element i -> dest[i - l] where l <= i < l + n (a guarded store; the elements
//   dropped are computed and not stored: tiles with a remainder write the grid in one kernel)
// Null when f has no such inverse (Slide, Pad, ...).
View Emitter::output_view(const Expr& f, const View& dest, const Type& arg_type) {
  switch (f->kind) {
  case NodeKind::Join:
    return split_view(dest, arg_type.element().length());
  case NodeKind::Split:
    return join_view(dest, split_fields(*f).chunk);
  case NodeKind::Transpose:
    return transpose_view(dest);
  case NodeKind::Drop: {
    const MarginFields drop = drop_fields(*f);
    return crop_view(dest, drop.left, arg_type.length() - drop.left - drop.right);
  }
  case NodeKind::Map: {
    std::string var = fresh("v");
    ArithExpr v = ArithExpr::var(var, 0, arg_type.length() - 1);
    View inner = output_view(f->children[0], index_view(dest, v), arg_type.element());
    return inner ? map_view(inner, var) : View();
  }
  default:
    return {};
  }
}

void Emitter::apply_write(const Expr& f, const std::vector<Operand>& args, const View& dest) {
  if (lane_failure_)
    return; // lane mode failed: its statements are dropped
  const Node& n = *f;
  switch (n.kind) {
  case NodeKind::Lambda: {
    auto params = n.params();
    for (std::size_t i = 0; i < params.size(); ++i)
      env_.insert_or_assign(params[i].get(), args.at(i));
    write(n.body(), dest);
    return;
  }
  case NodeKind::Map:
    if (!(n.map_kind == MapKind::Map && is_layout_only(n.children[0]))) {
      write_map(n, args.at(0), dest, result_type(f, args));
      return;
    }
    break;
  case NodeKind::Reduce:
    write_reduce(n, args.at(0), dest);
    return;
  case NodeKind::Scan: // codegen/Scan.cpp
    write_scan(n, args.at(0), dest);
    return;
  case NodeKind::UserFun:
    write_user_fun(n, args, dest);
    return;
  case NodeKind::ToMem:
    apply_write(n.children[0], args, dest);
    return;
  case NodeKind::StreamSteps:
    write_stream_steps(n, args, dest);
    return;
  case NodeKind::Iterate:
    if (!is_layout_only(n.children[0])) {
      write_iterate(n, args.at(0), dest);
      return;
    }
    break;
  default:
    break;
  }
  copy(apply_value(f, args), dest); // a rearrangement of data: copy it element by element
}

// Statements that write shared memory at work-group level (inside MapWrg, outside MapLcl) are
// executed by one work-item: all of them compute the same value.
static std::string single_writer_guard() {
  return "if (get_local_id(0) == 0 && get_local_id(1) == 0 && get_local_id(2) == 0)";
}

void Emitter::write_user_fun(const Node& f, const std::vector<Operand>& args, const View& dest) {
  std::vector<View> views;
  std::vector<ScalarKind> kinds;
  for (const auto& a : args) {
    views.push_back(a.view);
    kinds.push_back(a.type.scalar_kind());
  }
  std::string name = functions_.scalar(*f.user_fun, kinds);
  assign(dest, resolve(call_view(name, views), {}));
}

void Emitter::copy(const Operand& src, const View& dest) {
  if (src.type.is_tuple()) { // each component into its own array (codegen/Storage.cpp)
    for (std::size_t k = 0; k < src.type.elements().size(); ++k)
      copy(Operand{component_view(src.view, static_cast<int>(k)), src.type.elements()[k]},
           component_view(dest, static_cast<int>(k)));
    return;
  }
  if (src.type.is_scalar()) {
    assign(dest, resolve(src.view, {}));
    return;
  }
  Type element = src.type.element();
  sequential_loop(src.type.length(), false, "c", [&](ArithExpr i) {
    copy(Operand{index_view(src.view, i), element}, index_view(dest, i));
  });
}

void Emitter::assign(const View& dest, const Access& value) {
  Access target = resolve(dest, {});
  std::optional<ArithExpr> guard; // written through a Drop: stored where it lands in the output
  if (target.kind == Access::Guarded && !target.outside) {
    guard = target.condition;
    target = Access(*target.inside);
  }
  if (target.kind != Access::MemoryRead)
    internal_error("a result is written through a view that is not memory");
  // The statement with the guards that apply: one writer at work-group level, the store's own.
  auto guarded = [&](Pieces statement) {
    if (guard)
      statement.insert(statement.begin(), Piece::guard(*guard));
    if (at_work_group_level() && target.memory->space != AddressSpace::Private)
      statement.insert(statement.begin(), Piece::literal(single_writer_guard() + " "));
    return statement;
  };
  if (target.memory->name == "out" && !out_store_index_) { // CodegenOptions::colour_pair_copy
    out_store_index_ = target.index;
    out_memory_ = target.memory;
  }
  const bool changes_only = options_.in_place && target.memory->name == "out";
  if (!lane_mode_ && changes_only) { // the output is also an input: store what changes
    const std::string v = fresh("changed");
    line(guarded(
        {Piece::literal(cat("{ const ", declared_type(target.memory->element), " ", v, " = ")),
         Piece::scalar(value), Piece::literal("; if ("), lvalue(target),
         Piece::literal(cat(" != ", v, ") ")), lvalue(target),
         Piece::literal(cat(" = ", v, "; }"))}));
    return;
  }
  if (changes_only) {
    cannot_vectorise("an in-place kernel stores only the elements that change");
    return;
  }
  if (!lane_mode_) {
    line(guarded(
        {lvalue(target), Piece::literal(" = "), Piece::scalar(value), Piece::literal(";")}));
    return;
  }
  store_lanes(target, guard, value);
}

void Emitter::write_map(const Node& f, const Operand& in, const View& dest, const Type& result) {
  Type element = in.type.element();
  auto body = [&](ArithExpr i) {
    apply_write(f.children[0], {Operand{index_view(in.view, i), element}}, index_view(dest, i));
  };
  switch (f.map_kind) {
  case MapKind::Glb:
  case MapKind::Wrg:
  case MapKind::Lcl:
    parallel_loop(f, in.type.length(), body);
    return;
  case MapKind::Seq:
    if (stream_windows(f, in, dest))
      return;
    sequential_loop(in.type.length(), false, "i", body);
    return;
  case MapKind::Map:
    sequential_loop(in.type.length(), false, "i", body);
    return;
  case MapKind::SeqUnroll:
    if (write_vector_lanes(f, in, dest, result))
      return;
    sequential_loop(in.type.length(), true, "i", body);
    return;
  }
}

void Emitter::write_reduce(const Node& f, const Operand& in, const View& dest) {
  Operand init = value(f.children[1]);
  if (!init.type.is_scalar())
    user_error(cat(reduce_kind_name(f.reduce_kind),
                   ": the code generator supports scalar accumulators, got ", init.type));
  Access target = resolve(index_view(dest, 0), {});
  // Accumulate straight into a private scalar (not a guarded store: Access::write_if).
  bool direct = target.kind == Access::MemoryRead && target.memory->is_scalar_var;
  std::string acc = direct ? target.memory->name : fresh("acc");
  ScalarKind kind = init.type.scalar_kind();
  if (direct) {
    assign(index_view(dest, 0), resolve(init.view, {}));
  } else {
    line({Piece::literal(cat(declared_type(kind), " ", acc, " = ")),
          value_piece(resolve(init.view, {}), kind), Piece::literal(";")});
    if (lane_mode_)
      lane_mode_->vectors[acc] = kind;
  }
  Type element = in.type.element();
  sequential_loop(in.type.length(), f.reduce_kind == ReduceKind::SeqUnroll, "j", [&](ArithExpr j) {
    Operand next = apply_value(f.children[0], {Operand{scalar_view(acc), init.type},
                                               Operand{index_view(in.view, j), element}});
    line({Piece::literal(acc + " = "), value_piece(resolve(next.view, {}), kind),
          Piece::literal(";")});
  });
  if (!direct)
    copy(Operand{scalar_view(acc), init.type}, index_view(dest, 0));
}

void Emitter::write_iterate(const Node& f, const Operand& in, const View& dest) {
  int64_t k = iterate_fields(f).times.value();
  if (k == 0) {
    copy(in, dest);
    return;
  }
  Operand cur = in;
  for (int64_t step = 0; step + 1 < k; ++step)
    cur = materialize(f.children[0], {cur}, result_type(f.children[0], {cur}), std::nullopt);
  apply_write(f.children[0], {cur}, dest);
}

} // namespace tessera::codegen
