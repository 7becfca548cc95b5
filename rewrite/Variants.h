// Executable variants of a high-level program: the rewrite catalog is enumerated, every
// result is completed by mapping strategies (the default lowering, work-groups with or without
// local memory, coarsened work-items, streaming), and duplicates and programs that the
// caller's generation check rejects are dropped. This is what the explorer builds and times.
// Each variant records its mapping as data (Variant::mapping, rewrite/Mapping.h). Which
// mappings a high-level variant gets follows from what its steps' rules declare
// (MappingTraits: the dimensions a step tiles, a streaming shape, a whole-program lowering):
// the mapping stage knows no rule by name.
//
// Programs of several steps (stencils::iterated_stencil): the default lowering ("global") maps
// every step to global work-items, one launch each (codegen::generate_program). The other
// mappings go to the computation that produces the result (the last step, or the fused steps of
// a temporally tiled variant); the earlier steps it reads are lowered sequentially (MapSeq), so
// that every work-item computes them whole in its private memory: one kernel is correct, but
// does k times (and for the earlier steps grid-size times) the work. Temporal tiling is the
// form that recomputes only a tile's halo.
#pragma once

#include "rewrite/Enumerate.h"

namespace tessera::rewrite {

struct LoweredVariants {
  std::vector<Variant> variants; // variants[0] is the default lowering (the baseline)
  EnumerationStats stats;        // of the enumeration of high-level variants
  std::size_t candidates = 0;    // lowered programs tried (a high-level variant with a mapping)
  std::size_t lowered_duplicates = 0; // candidates equal to one tried before (not generated again)
  std::size_t rejected_by_codegen = 0;
  std::map<std::string, std::size_t> rejection_reasons; // code generator message -> count
  // Each rejected candidate (its program, history and mapping) with the reason, so that a
  // family without variants can say that its candidates were refused, and why.
  std::vector<std::pair<Variant, std::string>> rejected;
  // Cut by the limits (options.deadline_seconds for the enumeration and the lowering together,
  // options.cancel, options.limit): high-level variants not lowered, and candidates not
  // code-generated; `stop` says why (None: nothing was cut).
  StopReason stop = StopReason::None;
  std::size_t not_lowered = 0;
  std::size_t not_generated = 0;
  double seconds = 0; // enumeration and lowering
  // "N executable variants from <enumeration summary>; C lowered candidates, U duplicates, R
  // rejected by the code generator[, cut by the deadline: ...], S s in all"
  std::string summary() const;
};

// Candidates are checked by options.check_generation (explore::executable_variants sets the
// code generator) on options.threads threads (default 1; 0: one per core); without a check
// every distinct candidate is returned.
LoweredVariants lowered_variants(const Expr& program, const EnumerateOptions& options = {});

} // namespace tessera::rewrite
