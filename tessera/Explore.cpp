#include "tessera/Explore.h"

#include "core/Error.h"
#include "tessera/Program.h"

namespace tessera {

explore::Problem make_problem(const std::string& name, const Expr& program,
                              const std::vector<int64_t>& extents, int depth, int steps) {
  bool symbolic = false;
  for (const auto& e : grid_extents(program))
    symbolic |= !e.as_constant().has_value();
  std::vector<ArithExpr> own(extents.begin(), extents.end());
  auto build = [&](const std::vector<ArithExpr>& at) {
    // A program of constant sizes exists at its own size only: it is its own small program.
    Expr sized = with_extents(program, symbolic ? at : own);
    return steps > 1 ? iterate_steps(sized, steps) : sized;
  };
  for (auto e : extents)
    if (e <= 0)
      user_error(cat("extents must be positive, got ", explore::size_text(extents)));
  return explore::make_problem(name, extents, build, depth);
}

explore::Report explore_program(runtime::Session& device, const explore::Problem& problem,
                                const explore::ExploreOptions& options) {
  return explore::explore(device, problem, options);
}

const VariantInfo& best_variant(const explore::Problem& problem, const explore::Report& report) {
  const explore::PointResult* best = report.best ? report.find(*report.best) : nullptr;
  if (!best)
    user_error(cat("the exploration of ", problem.name,
                   " has no best point: no point passed "
                   "its check (see the report's errors)"));
  if (best->variant < 0 || best->variant >= static_cast<int>(problem.variants.size()))
    user_error(cat("the report's best point is variant ", best->variant, ", but ", problem.name,
                   " has ", problem.variants.size(),
                   " variants: the report is of another "
                   "problem"));
  return problem.variants[static_cast<std::size_t>(best->variant)];
}

std::vector<int64_t> best_local_size(const explore::Report& report) {
  const explore::PointResult* best = report.best ? report.find(*report.best) : nullptr;
  std::vector<int64_t> local;
  if (!best || best->local == "auto")
    return local;
  std::size_t start = 0;
  while (start <= best->local.size()) {
    std::size_t end = std::min(best->local.find('x', start), best->local.size());
    local.push_back(std::stoll(best->local.substr(start, end - start)));
    start = end + 1;
  }
  return local;
}

} // namespace tessera
