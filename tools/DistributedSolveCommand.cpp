// `mpirun -np P tessera solve ...`: the multigrid solver on a grid distributed over the ranks
// (distributed/MultigridLayout.h), with the options of the single-device solve. As for the
// sweep (SweepCommand.cpp): a mistake every rank finds in the plan is printed once by rank 0
// (status 2); a failure after that prints "error: rank R of P: ..." and ends every rank.
#include <cstdlib>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "distributed/DeviceChoice.h"
#include "distributed/MultigridLayout.h"
#include "explore/runtime/Session.h"
#include "tools/Commands.h"
#include "tools/Interrupt.h"
#include "tools/SolveCommand.h"

namespace tessera::tools {

using namespace multigrid;

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE");
}

namespace {

int solve_on_ranks(const SolveCommandOptions& o, const Problem& problem, const SolverOptions& s,
                   distributed::Communicator& world, const std::vector<int>& ranks) {
  runtime::Session session(distributed::device_for_rank(o.device, world.host_rank()));
  distributed::MultigridLayout layout(world, session, problem, s, o.agglomerate, ranks);
  const auto& plan = layout.plan();
  const bool root = world.rank() == 0;
  if (root && !o.quiet) {
    std::cout << "problem " << o.problem << " " << problem.n << "^" << problem.dims << ", "
              << o.cycle << "(" << o.pre << "," << o.post << ") " << o.smoother << ", "
              << o.precision << ", on " << world.size() << " ranks ("
              << distributed::extents_text({plan.ranks.begin(), plan.ranks.end()})
              << "), rank 0 on " << session.device().name << "\n"
              << "distributed levels 0-" << plan.grids.size() - 1 - plan.agglomerates()
              << (plan.agglomerates()
                      ? cat(", level ", plan.agglomerated, " and coarser on rank 0 (blocks below ",
                            o.agglomerate, " points)")
                      : std::string(", no agglomeration"))
              << "\n";
  }
  // Every rank stops after the same cycle: Ctrl-C on any rank stops them all.
  SolverOptions agreed = s;
  agreed.stop = [&world, local = s.stop] {
    return world.sum(uint64_t{local && local() ? 1u : 0u}) > 0;
  };
  Solver solver(session, problem, agreed, layout);
  if (const char* fail = std::getenv("TESSERA_FAIL_RANK"))
    if (std::atoi(fail) == world.rank())
      throw Error(cat("device error injected for testing (TESSERA_FAIL_RANK=", fail, ")"));
  SolveResult r = solver.solve();
  uint64_t halo_bytes = world.sum(layout.halo_bytes());
  if (!root)
    return r.converged ? 0 : r.stop_reason == "interrupted" ? kInterruptedStatus : 1;
  if (!o.quiet) {
    std::cout << "levels:";
    for (const auto& l : r.levels)
      std::cout << " " << l << ";";
    std::cout << "\nhalo bytes sent by all ranks: " << halo_bytes << "\n";
  }
  print_result(r, std::cout);
  if (!o.json.empty()) {
    auto j = to_json(r, o, session);
    j["ranks"] = plan.ranks;
    j["agglomerated_level"] = plan.agglomerates() ? static_cast<int64_t>(plan.agglomerated) : -1;
    j["halo_bytes"] = halo_bytes;
    write_file_atomically(o.json, j.dump(2) + "\n");
  }
  return solve_status(r, o, s);
}

} // namespace

int distributed_solve_command(const SolveCommandOptions& o, const Problem& problem,
                              const SolverOptions& s) {
  distributed::MpiRuntime mpi;
  auto world = distributed::Communicator::world();
  std::vector<int> ranks;
  try {
    if (!o.ranks.empty()) {
      auto extents = parse_numeric_size(o.ranks, problem.dims, "--ranks");
      ranks.assign(extents.begin(), extents.end());
      int product = 1;
      for (int r : ranks)
        product *= r;
      if (product != world.size())
        user_error(
            cat("--ranks ", o.ranks, " makes ", product, " ranks, the run has ", world.size()));
    } else {
      ranks = world.balanced_dims(problem.dims);
    }
    distributed::plan_decomposition(world.size(), ranks, problem, s, o.agglomerate);
  } catch (const Error& e) {
    // Every rank found the same mistake: one message.
    if (world.rank() == 0)
      std::cerr << "error: " << e.what() << "\n";
    return 2;
  }
  try {
    return solve_on_ranks(o, problem, s, world, ranks);
  } catch (const std::exception& e) {
    world.fail(e.what());
  }
}

} // namespace tessera::tools
