// Whether a report can be continued exactly (explore::check_resumable, declared in Explorer.h):
// the rules are in docs/cli.md, "--resume".
#include <cmath>

#include "core/Error.h"
#include "explore/Explorer.h"

namespace tessera::explore {

void check_resumable(const Report& old, const std::string& stencil,
                     const std::vector<int64_t>& size, const ExploreOptions& options,
                     const std::string& program) {
  if (old.stencil != stencil || old.size != size)
    user_error(cat("cannot resume: the report is for ", old.stencil, " ", size_text(old.size),
                   ", not ", stencil, " ", size_text(size)));
  if (!program.empty() && !old.program.empty() && old.program != program)
    user_error(cat("cannot resume: the report is for another program named ", stencil, " (",
                   old.program, "), not ", program,
                   " (another --program or --steps: no point would be reused); start a new ",
                   "report without --resume"));
  auto differs = [](const std::string& option, const auto& then, const auto& now) {
    user_error(cat("cannot resume: the report was explored with ", option, " ", then,
                   ", this run asks for ", option, " ", now, " (a different space or order: ",
                   "points would be dropped or measured differently); resume with ", option, " ",
                   then, ", or start a new report without --resume"));
  };
  if (old.depth != options.depth)
    differs("--depth", old.depth, options.depth);
  if (old.strategy != to_string(options.strategy))
    differs("--strategy", old.strategy, to_string(options.strategy));
  if (old.seed != options.seed)
    differs("--seed", old.seed, options.seed);
  if (old.repeats != options.repeats)
    differs("--repeats", old.repeats, options.repeats);
  if (old.complete && !old.interrupted)
    user_error(cat("cannot resume: the report is complete (all ", old.points.size(),
                   " points of the space were measured",
                   old.speedup > 0
                       ? cat(", best / baseline ", std::round(old.speedup * 100) / 100, "x")
                       : std::string(),
                   "): there is nothing left to measure; run without --resume to explore again ",
                   "(the report is replaced)"));
}

} // namespace tessera::explore
