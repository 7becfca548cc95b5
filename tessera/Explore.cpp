#include "tessera/Explore.h"

#include "compile/DeviceLimits.h"
#include "core/Error.h"
#include "rewrite/Lower.h"
#include "tessera/Program.h"

namespace tessera {

namespace {

// The program at a grid size: a program of constant sizes exists at its own size only (it is its
// own small program); `steps` time steps of it when steps > 1.
explore::ProgramAt program_at(const Expr& program, const std::vector<int64_t>& extents, int steps) {
  bool symbolic = false;
  for (const auto& e : grid_extents(program))
    symbolic |= !e.as_constant().has_value();
  return [=](const std::vector<int64_t>& at) {
    Expr sized = at_size(program, symbolic ? at : extents);
    return steps > 1 ? iterate_steps(sized, steps) : sized;
  };
}

} // namespace

explore::Problem make_problem(const std::string& name, const Expr& program,
                              const std::vector<int64_t>& extents, int depth, int steps) {
  return make_problem(name, program_at(program, extents, steps), extents, depth);
}

explore::Problem make_problem(runtime::Session& device, const std::string& name,
                              const Expr& program, const std::vector<int64_t>& extents, int depth,
                              int steps) {
  rewrite::EnumerateOptions control;
  explore::apply_device_limits(control, device.device());
  return explore::make_problem(name, program_at(program, extents, steps), extents, depth, control);
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
  return best ? explore::parse_local_size(best->local) : std::vector<int64_t>{};
}

} // namespace tessera
