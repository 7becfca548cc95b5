// Parallel cyclic reduction (Hockney 1965; on GPUs: Zhang, Cohen and Owens 2010). Step s
// replaces row i by itself minus k1 times row i-s and k2 times row i+s, k1 = lower_i /
// diagonal_{i-s}, k2 = upper_i / diagonal_{i+s}, which couples it to rows i-2s and i+2s only:
//   lower'    = -lower_{i-s} k1            diagonal' = diagonal_i - upper_{i-s} k1 - lower_{i+s} k2
//   upper'    = -upper_{i+s} k2            rhs'      = rhs_i - rhs_{i-s} k1 - rhs_{i+s} k2
#include "core/Error.h"
#include "dsl/Tridiagonal.h"

namespace tessera {

namespace {

struct Reduction {
  int64_t n;
  ScalarKind kind;
  ReductionPlacement placement;
  Loc loc;

  // Element-wise computation of a whole line: a Map, or one row per work-item into local memory.
  Fun each(Fun f) const {
    return placement == ReductionPlacement::LocalMemory ? to_local(map_lcl(0, f, loc), loc)
                                                        : map(f, loc);
  }
  Boundary edge(double value) const {
    return kind == ScalarKind::F32 ? constant(static_cast<float>(value)) : constant(value);
  }
  // The rows s before and after each row, with the identity rows outside the line.
  Val windows(Val x, int64_t s, double outside) const {
    return x | pad(s, s, edge(outside), loc) | slide(2 * s + 1, 1, loc);
  }

  Val solve(Val lower, Val diagonal, Val upper, Val rhs, int64_t s) const {
    if (s >= n) {
      auto divide =
          user_fun("pcrSolution", {"diagonal", "rhs"}, [](auto b, auto d) { return d / b; });
      Fun last([=](Val t) { return divide(t.get(0), t.get(1)); });
      // The last step writes the result where the caller stores it.
      Fun f = placement == ReductionPlacement::LocalMemory ? map_lcl(0, last, loc) : map(last, loc);
      return zip({diagonal, rhs}, loc) | f;
    }
    // Bound by a lambda so that every array of a step is computed once.
    Fun step([=, this](Val a, Val b, Val c, Val d) {
      Val w = zip({windows(a, s, 0), windows(b, s, 1), windows(c, s, 0), windows(d, s, 0)}, loc);
      // The 12 values of rows i-s, i, i+s: lower, diagonal, upper, rhs of each.
      auto rows_of = [s](Val t) {
        std::vector<Val> v;
        for (int64_t at : {int64_t{0}, s, 2 * s})
          for (int k = 0; k < 4; ++k)
            v.push_back(t.get(k).at(at));
        return v;
      };
      auto lower_fn =
          user_fun("pcrLower", [](auto am, auto bm, auto, auto, auto a, auto, auto, auto, auto,
                                  auto, auto, auto) { return -am * (a / bm); });
      auto diagonal_fn = user_fun(
          "pcrDiagonal", [](auto, auto bm, auto cm, auto, auto a, auto b, auto c, auto, auto ap,
                            auto bp, auto, auto) { return b - cm * (a / bm) - ap * (c / bp); });
      auto upper_fn =
          user_fun("pcrUpper", [](auto, auto, auto, auto, auto, auto, auto c, auto, auto, auto bp,
                                  auto cp, auto) { return -cp * (c / bp); });
      auto rhs_fn = user_fun("pcrRhs", [](auto, auto bm, auto, auto dm, auto a, auto, auto c,
                                          auto d, auto, auto bp, auto,
                                          auto dp) { return d - dm * (a / bm) - dp * (c / bp); });
      auto next = [&](const Fun& fn) {
        return w | each(Fun([=](Val t) { return fn.apply(rows_of(t)); }));
      };
      return solve(next(lower_fn), next(diagonal_fn), next(upper_fn), next(rhs_fn), 2 * s);
    });
    return step(lower, diagonal, upper, rhs);
  }
};

} // namespace

Val pcr_solve(Val line, const TridiagonalRows& rows, ScalarKind kind, ReductionPlacement placement,
              Loc loc) {
  auto n = line.length().as_constant();
  if (!n)
    user_error(cat("parallel cyclic reduction unrolls its log2(n) steps: the line's length must be "
                   "a constant, got ",
                   line.length().to_string()));
  if (kind != ScalarKind::F32 && kind != ScalarKind::F64)
    user_error(cat("a tridiagonal solve needs f32 or f64 coefficients, got ", to_string(kind)));
  Reduction r{*n, kind, placement, loc};
  auto coefficient = [&](int which) {
    return r.each(Fun([=](Val e) {
      TridiagonalRow row = rows(e);
      return which == 0 ? row.lower : which == 1 ? row.diagonal : which == 2 ? row.upper : row.rhs;
    }));
  };
  // Row 0 has no lower and row n-1 no upper neighbour: the identity rows outside read 0 for them.
  return r.solve(line | coefficient(0), line | coefficient(1), line | coefficient(2),
                 line | coefficient(3), 1);
}

} // namespace tessera
