// Vector memory operations: a work-item that computes N neighbouring results (N "lanes") reads
// and writes them with vloadN/vstoreN.
//
// The IR says which results belong together: `Join o MapGlb(0)(MapSeqUnroll(f)) o Split(N)`
// (the lowering rule vectorize-4 builds it for N = 4) lets each work-item compute N neighbouring
// elements. The emitter vectorises a MapSeqUnroll of N in {2, 4, 8, 16} lanes when
//   - each lane's result is one scalar of a vector kind (f32, f64, i32, u8; not bool),
//   - lane k's result lands at memory[base + k] in global or local memory, and
//   - base is provably a multiple of N (aligned stores),
// and otherwise prints the usual unrolled scalar code. In "lane mode" f is printed once for all
// lanes: every scalar it computes becomes an N-vector (float4, ...), private intermediates are
// arrays of vectors, and an access is printed as
//   vloadN(0, p + i)           when lane k reads p[i + k] (aligned or not: vloadN only needs
//                              the element's alignment, and stencil neighbours are rarely aligned)
//   (floatN)(v)                when every lane reads the same value v
//   (floatN)(v0, v1, ...)      otherwise, one scalar access per lane (clamped or guarded
//                              boundary reads, strided reads)
// and the result is written with vstoreN(v, 0, p + base). Alignment is not needed for
// correctness (vstoreN too only needs the element's alignment); it is required so that a vector
// store is one memory transaction, which is what vectorising is for: an output whose innermost
// length is a multiple of 4 makes every base a multiple of 4 (buffers are allocated at least
// 16-byte aligned). Rows of another length (61) have no aligned bases; their stores are
// unaligned vstoreN (vector_store_fits). Lanes stored through a Drop (vectorize-4 with a
// remainder) are one vstoreN where every lane lands in the output, else one store per lane.
//
// User functions stay scalar per lane: f_v4(a, b) = (float4)(f(a.s0, b.s0), ..., f(a.s3, b.s3)).
// A body that only adds, subtracts, multiplies, divides and negates values of one floating kind
// is printed on vectors directly (float4 arithmetic is lane-wise IEEE arithmetic, so the results
// are the same); comparisons, selects, casts and math functions keep the per-lane form, since
// their vector forms differ (a vector comparison is -1 for true, pow has no mixed overloads).
//
// Anything lane mode does not cover (local or work-group level results, parallel maps inside,
// bool values, a lane reading another lane's private value) is recorded as the reason lane mode
// fails (Emitter::cannot_vectorise); the emitter then drops the lanes' statements and prints the
// scalar code instead: the result is never wrong code, at worst scalar code.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "codegen/CExpr.h"
#include "codegen/View.h"
#include "core/Scalar.h"

namespace tessera::codegen {

bool is_vector_lane_count(int64_t n);             // 2, 4, 8, 16
bool is_vector_kind(ScalarKind k);                // f32, f64, i32, u8
std::string vector_type(ScalarKind k, int lanes); // "float4"; for vector kinds only
std::string lane_component(int lane);             // ".s0" ... ".sf"
// If index(lane := k) == base + k for every lane k: base (index with lane := 0).
std::optional<ArithExpr> contiguous_base(const ArithExpr& index, const std::string& lane,
                                         int lanes);
// May lane k's result be stored at memory[base + k] with one vstoreN? When base is a multiple
// of N (one memory transaction), or when the memory's rows are not a multiple of N long (no
// row but the first could be stored aligned: a grid of 61 columns; vstoreN only needs the
// element's alignment).
bool vector_store_fits(const Memory& memory, const ArithExpr& base, int lanes);
// A condition on the lane variable that holds when `condition` holds in every lane: each
// comparison in its tightest lane where its sides move by constant steps from lane to lane
// (i + lane < 61: i + 3 < 61), else the lanes' conditions together.
ArithExpr in_every_lane(const ArithExpr& condition, const std::string& lane, int lanes);
// "p + (i)": the address of p[i], for vloadN/vstoreN.
std::string address_of(CPrinter& printer, const Memory& memory, const ArithExpr& index);

// The signature of an emitted scalar user function.
struct UserFunSignature {
  UserFunDef def;
  std::vector<ScalarKind> params;
  ScalarKind result = ScalarKind::F32;
};

// Does the N-lane version of the function call the scalar one (once per lane), or compute on
// vectors directly?
bool vector_user_fun_calls_scalar(const UserFunSignature& sig);
// The definition of the N-lane version `vector_name` of the scalar user function `scalar_name`
// (see above: direct vector arithmetic or one scalar call per lane).
std::string vector_user_fun_definition(const std::string& scalar_name,
                                       const std::string& vector_name, const UserFunSignature& sig,
                                       int lanes);

// One vectorised function: its lanes and private vectors.
struct LaneMode {
  std::string lane; // the lane index variable in index expressions
  int lanes = 4;    // N
  // Private variables and arrays of N-vectors (one value per lane), with their element kind.
  std::map<std::string, ScalarKind> vectors;
};

class UserFunctions; // codegen/UserFunctions.h

// Prints accesses of lane mode as N-vector expressions.
class LanePrinter {
public:
  struct Context {
    CPrinter* scalar = nullptr; // prints indices and scalar accesses
    const LaneMode* mode = nullptr;
    UserFunctions* functions = nullptr; // signatures; N-lane versions defined on first use
  };
  explicit LanePrinter(Context context) : c_(std::move(context)) {}

  // An N-vector of `kind` expression of the access's value in every lane.
  std::string vector(const Access& access, ScalarKind kind);
  // Is the value the same scalar in every lane (printable as a scalar, no vector variables)?
  bool lane_invariant(const Access& access) const;
  // The access in lane k as a scalar access (vectors read through their component .sk).
  Access at_lane(const Access& access, int k);

private:
  bool mentions_lane(const ArithExpr& e) const;
  std::string gather(const Access& access, ScalarKind kind);
  std::string converted(const std::string& text, ScalarKind from, ScalarKind to);
  bool is_vector_memory(const Access& a) const;
  Context c_;
};

} // namespace tessera::codegen
