// Code generation of Scan / ScanBackward: one sequential loop in the work-item that computes
// the scan, its state in a private scalar:
//   T state = init;
//   for (int k = 0; k < n; ++k) { state = f(state, x[i]); out[i] = state; }  i = k or n-1-k
// Parallelism comes from the maps around it (one work-item per line under MapGlb).
#include "codegen/Emitter.h"
#include "core/Error.h"

namespace tessera::codegen {

void Emitter::write_scan(const Node& f, const Operand& in, const View& dest) {
  const char* name = f.backward ? "ScanBackward" : "Scan";
  Operand init = value(f.children[1]);
  if (!init.type.is_scalar())
    user_error(cat(name, ": the code generator supports a scalar state, got ", init.type,
                   " (write a recurrence with a tuple state as several scans of scalars, "
                   "each reading the others' results)"));
  // Each element depends on the previous one: no lanes computed side by side.
  if (lane_mode_) {
    cannot_vectorise("a scan carries its state from one element to the next");
    return;
  }
  ScalarKind kind = init.type.scalar_kind();
  if (kind == ScalarKind::F64)
    uses_fp64_ = true;
  std::string state = fresh("state");
  line({Piece::literal(cat(declared_type(kind), " ", state, " = ")),
        Piece::scalar(resolve(init.view, {})), Piece::literal(";")});
  const ArithExpr n = in.type.length();
  const Type element = in.type.element();
  sequential_loop(n, false, "k", [&](ArithExpr k) {
    ArithExpr i = f.backward ? n - 1 - k : k;
    Operand next = apply_value(f.children[0], {Operand{scalar_view(state), init.type},
                                               Operand{index_view(in.view, i), element}});
    line({Piece::literal(state + " = "), Piece::scalar(resolve(next.view, {})),
          Piece::literal(";")});
    assign(index_view(dest, i), resolve(scalar_view(state), {}));
  });
}

} // namespace tessera::codegen
