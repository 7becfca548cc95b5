#include "dsl/Tridiagonal.h"

#include "core/Error.h"

namespace tessera {

namespace {

Val zero_of(ScalarKind kind) {
  if (kind == ScalarKind::F32)
    return Val(0.0f);
  if (kind == ScalarKind::F64)
    return Val(0.0);
  user_error(cat("a tridiagonal solve needs f32 or f64 coefficients, got ", to_string(kind)));
}

Boundary zero_boundary(ScalarKind kind) {
  return kind == ScalarKind::F32 ? constant(0.0f) : constant(0.0);
}

} // namespace

Val thomas_solve(Val line, const TridiagonalRows& rows, ScalarKind kind, Loc loc) {
  Val zero = zero_of(kind);
  auto upper_step = user_fun("thomasUpper", {"previous", "lower", "diagonal", "upper"},
                             [](auto s, auto a, auto b, auto c) { return c / (b - a * s); });
  auto rhs_step =
      user_fun("thomasRhs", {"previous", "lower", "diagonal", "rhs", "previousUpper"},
               [](auto s, auto a, auto b, auto d, auto cp) { return (d - a * s) / (b - a * cp); });
  auto back_step = user_fun("thomasBack", {"next", "upper", "rhs"},
                            [](auto s, auto cp, auto dp) { return dp - cp * s; });
  Val upper = line | scan(Fun([=](Val s, Val e) {
                            TridiagonalRow r = rows(e);
                            return upper_step(s, r.lower, r.diagonal, r.upper);
                          }),
                          zero, loc);
  // Bound once (a lambda applied to it), so that both later scans read the same c'.
  Fun finish([=](Val cp) {
    // c'_{i-1} beside element i (0 before the first).
    Val previous_upper = cp | drop(0, 1, loc) | pad(1, 0, zero_boundary(kind), loc);
    Val rhs = zip({line, previous_upper}, loc) |
              scan(Fun([=](Val s, Val t) {
                     TridiagonalRow r = rows(t.get(0));
                     return rhs_step(s, r.lower, r.diagonal, r.rhs, t.get(1));
                   }),
                   zero, loc);
    return zip({cp, rhs}, loc) |
           scan_backward(Fun([=](Val s, Val t) { return back_step(s, t.get(0), t.get(1)); }), zero,
                         loc);
  });
  return upper | finish;
}

} // namespace tessera
