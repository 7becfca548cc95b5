// From a high-level program to the explorer's problem: its executable rewrite variants
// (compile/ExecutableVariants.h) as VariantInfo, numbered, variant 0 the plain MapGlb lowering.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "compile/ExecutableVariants.h"
#include "explore/Explorer.h"
#include "explore/Space.h"
#include "rewrite/Enumerate.h"
#include "rewrite/Rule.h"
#include "rewrite/Variants.h"

namespace tessera::explore {

// describe_step: explore/Derivation.h.
VariantInfo variant_info(const rewrite::Variant& variant);

struct Variants {
  std::vector<VariantInfo> variants; // [0] = plain MapGlb lowering
  std::string summary;               // enumeration statistics in one line
  // Why the enumeration or the lowering stopped early: the variant limit (control.limit, 10000
  // by default), the deadline or the cancel flag (None: every variant to the depth is here).
  StopReason stop = StopReason::None;
  // Why each family of explore/Family.h that has no variant here is absent, one line each:
  // "tiled: tile-nd: extent 61 has no divisor among the tile sizes {4, 8, 16, 32, 64}".
  std::vector<std::string> absent;
  // Why lowered candidates were dropped, one line per reason with its count: "3 candidates: the
  // intermediate of type ... would need a private array of 2048 elements per work-item (at most
  // 1024)" (the code generator's message where it refused one).
  std::vector<std::string> rejected;
};
// Enumerates the rewrite catalog up to `depth` steps and lowers every result with the mapping
// strategies; duplicates and programs the code generator cannot handle are dropped. `control`
// sets the limits (deadline, cancel flag, variant limit) and the progress callback (its depth is
// replaced by `depth`); a summary of a cut enumeration says what cut it ("stopped at the variant
// limit during depth 7", "cut by the deadline: ..."), as `stop` does. Any depth ends: the
// variant limit bounds the work of one without a deadline. Kernels beyond `control.target`'s
// limits are dropped (the portable target's by default: explore::apply_device_limits sets a
// device's, compile/DeviceLimits.h).
Variants enumerate_variants(const Expr& program, int depth = 1,
                            rewrite::EnumerateOptions control = {});

// absent_families: for each family (variant_families(), plain aside) without a variant in
// `present`, the reasons its rules gave for not applying (EnumerationStats::not_applicable),
// and where its rules applied but every candidate was refused (`refused`: family -> the reason
// of one, LoweredVariants::rejected), that reason.
std::vector<std::string> absent_families(const std::set<std::string>& present,
                                         const std::map<std::string, std::size_t>& not_applicable,
                                         const std::map<std::string, std::string>& refused = {});

// A grid of at most ~4096 cells with the same number of dimensions (each extent at most the
// real one), for checking the trusted variant with the interpreter.
std::vector<int64_t> small_extents(const std::vector<int64_t>& extents);
// The points the program's widest user function reads (its arity) and its widest Pad.
struct WindowSize {
  int64_t reads = 0, radius = 0;
};
WindowSize window_size(const Expr& program);

// The same for `program`, smaller where its windows are large (a user function of more than 27
// points): the interpreter's reads as for 27 points on the default grid, each extent at least
// 2r+2 (r: its widest Pad) and 8. A 729-point box: 10^3 instead of 16^3.
std::vector<int64_t> small_extents(const std::vector<int64_t>& extents, const Expr& program);

// Builds the high-level program at a grid size (extents outermost first).
using ProgramAt = std::function<Expr(const std::vector<int64_t>& extents)>;
// The explorer's problem: the program at `extents`, its lowered variants up to `depth` rewrite
// steps (enumerated under `control`, not yet generated: the explorer generates them on demand), and
// the same program on small_extents(extents) with its plain lowering, whose check against the
// interpreter makes the plain lowering the reference of grids too large for it. When
// control.cancel is set at the end, the problem has no small program (its caller stops).
Problem make_problem(const std::string& name, const ProgramAt& build,
                     const std::vector<int64_t>& extents, int depth = 1,
                     rewrite::EnumerateOptions control = {});

// A point's work-group size from its text: "auto" -> {} (the implementation chooses),
// "32x8" -> {32, 8}.
std::vector<int64_t> parse_local_size(const std::string& text);

} // namespace tessera::explore
