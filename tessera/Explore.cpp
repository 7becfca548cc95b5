#include "tessera/Explore.h"

#include "core/Error.h"
#include "rewrite/Lower.h"
#include "tessera/Program.h"

namespace tessera {

std::vector<int64_t> small_extents(const std::vector<int64_t>& extents) {
  int64_t side = extents.size() == 1 ? 4096 : extents.size() == 2 ? 64 : 16;
  std::vector<int64_t> small;
  for (auto e : extents)
    small.push_back(std::min(e, side));
  return small;
}

explore::Problem make_problem(const std::string& name, const ProgramAt& build,
                              const std::vector<int64_t>& extents, int depth) {
  explore::Problem p;
  p.name = name;
  p.extents = extents;
  p.program = build(extents);
  auto variants = enumerate_variants(p.program, depth);
  p.variants = std::move(variants.variants);
  p.enumeration = variants.summary;
  p.small_extents = small_extents(extents);
  p.small_program = build(p.small_extents);
  p.small_baseline = rewrite::lower_default(p.small_program);
  return p;
}

explore::Problem make_problem(const std::string& name, const Expr& program,
                              const std::vector<int64_t>& extents, int depth, int steps) {
  bool symbolic = false;
  for (const auto& e : grid_extents(program))
    symbolic |= !e.as_constant().has_value();
  auto build = [&](const std::vector<int64_t>& at) {
    // A program of constant sizes exists at its own size only: it is its own small program.
    Expr sized = at_size(program, symbolic ? at : extents);
    return steps > 1 ? iterate_steps(sized, steps) : sized;
  };
  return make_problem(name, build, extents, depth);
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
