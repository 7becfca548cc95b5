// The emitter's lane mode: an unrolled sequential map printed once on N-vectors
// (codegen/Vector.h for the lane printer).
#include "codegen/Emitter.h"

#include <algorithm>

#include "codegen/ScalarC.h"
#include "core/Error.h"

namespace tessera::codegen {

namespace {

bool mentions_variable(const ArithExpr& e, const std::string& name) {
  auto vars = e.variables();
  return std::find(vars.begin(), vars.end(), name) != vars.end();
}

} // namespace

// Lane mode (codegen/Vector.h): a MapSeqUnroll of N in {2, 4, 8, 16} whose lanes each produce
// one scalar, landing at memory[base + k] in global or local memory with base a multiple of N,
// is printed once for all lanes on N-vectors, its results stored with one vstoreN. When the
// function needs something lane mode does not cover, the unrolled scalar code is printed instead.

bool Emitter::write_vector_lanes(const Node& f, const Operand& in, const View& dest,
                                 const Type& result) {
  if (lane_mode_ || at_work_group_level())
    return false;
  auto n = in.type.length().as_constant();
  const Type& element = result.element();
  auto count = element.scalar_count().as_constant();
  if (!n || !is_vector_lane_count(*n) || !count || *count != 1 ||
      !is_vector_kind(element.innermost().scalar_kind()))
    return false;
  const std::string lane = "lane$"; // never printed: every access is resolved per lane
  ArithExpr var = ArithExpr::var(lane, 0, *n - 1);
  View lane_dest = index_view(dest, var);
  Access target = resolve(lane_dest, Path(static_cast<std::size_t>(element.rank()), Step::at(0)));
  if (target.kind == Access::Guarded && !target.outside) // a store at a Drop's edge
    target = Access(*target.inside);
  if (target.kind != Access::MemoryRead || target.memory->is_scalar_var ||
      target.memory->space == AddressSpace::Private)
    return false;
  auto base = contiguous_base(target.index, lane, static_cast<int>(*n));
  if (!base || !vector_store_fits(*target.memory, *base, static_cast<int>(*n)))
    return false;

  // Everything lane mode may change, restored when it falls back to scalar code (its
  // statements are built in a block of their own, appended when lane mode succeeds).
  auto saved_counters = counters_;
  auto saved_pending = pending_declarations_;
  auto saved_functions = functions_;
  auto saved_printer = printer_;
  auto saved_env = env_;
  auto saved_fp64 = uses_fp64_;
  auto saved_private = private_bytes_;
  lane_mode_ = std::make_shared<LaneMode>(LaneMode{lane, static_cast<int>(*n), {}});
  Block lanes = capture([&] {
    apply_write(f.children[0], {Operand{index_view(in.view, var), in.type.element()}}, lane_dest);
  });
  lane_mode_.reset();
  if (!lane_failure_) {
    append(std::move(lanes));
    return true;
  }
  lane_failure_.reset();
  counters_ = saved_counters;
  pending_declarations_ = saved_pending;
  functions_ = saved_functions;
  printer_ = saved_printer;
  env_ = saved_env;
  uses_fp64_ = saved_fp64;
  private_bytes_ = saved_private; // the lanes' arrays are dropped with their statements
  return false;
}

void Emitter::store_lanes(const Access& target, const std::optional<ArithExpr>& guard,
                          const Access& value) {
  const Memory& m = *target.memory;
  const std::string& lane = lane_mode_->lane;
  const int lanes = lane_mode_->lanes;
  Piece v = value_piece(value, m.element);
  if (lane_mode_->vectors.count(m.name)) { // a private vector: one element per lane
    if (guard || mentions_variable(target.index, lane)) {
      cannot_vectorise("a lane writes another lane's private value");
      return;
    }
    bool declare = m.is_scalar_var && pending_declarations_.erase(m.name);
    line({Piece::literal(declare ? declared_type(m.element) + " " : ""), Piece::scalar(target),
          Piece::literal(" = "), v, Piece::literal(";")});
    return;
  }
  auto base = contiguous_base(target.index, lane, lanes);
  if (m.is_scalar_var || m.space == AddressSpace::Private || !base ||
      !vector_store_fits(m, *base, lanes)) {
    cannot_vectorise("the lanes' results are not contiguous and aligned");
    return;
  }
  auto vstore = [&](Piece vector) {
    return Pieces{Piece::literal(cat("vstore", lanes, "(")), std::move(vector),
                  Piece::literal(", 0, "), Piece::address(Access::read(target.memory, *base)),
                  Piece::literal(");")};
  };
  if (!guard) {
    line(vstore(v));
    return;
  }
  // At a Drop's edge: one vector store where every lane lands in the output, else each lane's
  // own guarded store (a work-item whose lanes cross the edge; none in an interior copy).
  const std::string stored = fresh("lanes");
  line({Piece::literal(cat("const ", declared_type(m.element), " ", stored, " = ")), v,
        Piece::literal(";")});
  const ArithExpr every_lane = in_every_lane(*guard, lane, lanes);
  Pieces all = vstore(Piece::literal(stored));
  all.insert(all.begin(), Piece::guard(every_lane));
  line(std::move(all));
  Pieces each{Piece::guard(every_lane, true), Piece::literal("{ ")};
  for (int k = 0; k < lanes; ++k) {
    const std::map<std::string, ArithExpr> at_k{{lane, ArithExpr(k)}};
    each.push_back(Piece::guard(guard->substitute(at_k)));
    each.push_back(Piece::scalar(substitute(target, at_k)));
    each.push_back(Piece::literal(cat(" = ", stored, lane_component(k), "; ")));
  }
  each.push_back(Piece::literal("}"));
  line(std::move(each));
}

void Emitter::cannot_vectorise(const std::string& reason) {
  if (lane_mode_ && !lane_failure_)
    lane_failure_ = reason;
}

Piece Emitter::value_piece(const Access& value, ScalarKind kind) {
  if (!lane_mode_)
    return Piece::scalar(value);
  if (!is_vector_kind(kind)) {
    cannot_vectorise("OpenCL C has no vectors of " + scalar_c_type(kind));
    return Piece::literal("");
  }
  return Piece::vector(value, kind, lane_mode_);
}

std::string Emitter::declared_type(ScalarKind kind) {
  if (lane_mode_ && !is_vector_kind(kind)) {
    cannot_vectorise("OpenCL C has no vectors of " + scalar_c_type(kind));
    return "";
  }
  return lane_mode_ ? vector_type(kind, lane_mode_->lanes) : scalar_c_type(kind);
}

} // namespace tessera::codegen
