// `mpirun -np P tessera solve ...`: the multigrid solver on a grid distributed over the ranks
// (distributed/MultigridLayout.h), with the options of the single-device solve. As for the
// sweep (SweepCommand.cpp): a mistake found in the set-up (the plan, each rank's device, the
// solver's kernels) is agreed on by the ranks and printed once (status 2,
// distributed/SetupAgreement.h); a failure after that prints "error: rank R of P: ..." and ends
// every rank.
#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "distributed/DeviceChoice.h"
#include "distributed/MultigridLayout.h"
#include "distributed/SetupAgreement.h"
#include "runtime/Session.h"
#include "tools/Commands.h"
#include "tools/Interrupt.h"
#include "tools/SolveCommand.h"

namespace tessera::tools {

using namespace multigrid;

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMI_SIZE");
}

namespace {

// Rank 0's wall time per cycle outside the kernels: each level's halo exchanges and the
// agglomerated levels (moved to fewer ranks and cycled there).
void print_time_outside_kernels(const std::vector<double>& exchange_ms, double agglomerated_ms,
                                std::size_t cycles, bool agglomerates) {
  if (cycles == 0)
    return;
  const double n = static_cast<double>(cycles);
  std::ostringstream line; // fixed notation without changing std::cout's
  line << std::fixed << std::setprecision(3)
       << "time per cycle outside the kernels (rank 0): halo exchanges";
  double total = 0;
  for (std::size_t l = 0; l < exchange_ms.size(); ++l) {
    line << (l ? ", " : " ") << "L" << l << " " << exchange_ms[l] / n << " ms";
    total += exchange_ms[l];
  }
  line << " (" << total / n << " ms)";
  if (agglomerates)
    line << "; agglomerated levels " << agglomerated_ms / n << " ms";
  std::cout << line.str() << "\n";
}

// The set-up, with an agreement after each step that may fail on one rank before a collective
// (the device of each rank; the layout, before its faces share memory), and after the solver's
// kernels (every rank finds a bad --variant alike). Returns 0 or the agreed exit status.
int set_up(const SolveCommandOptions& o, const Problem& problem, const SolverOptions& s,
           distributed::Communicator& world, const std::vector<int>& ranks,
           std::unique_ptr<runtime::Session>& session,
           std::unique_ptr<distributed::MultigridLayout>& layout, std::unique_ptr<Solver>& solver) {
  if (int status = distributed::agree_on_setup(world, distributed::attempt([&] {
                                                 session = std::make_unique<runtime::Session>(
                                                     distributed::device_for_rank(
                                                         o.device, world.host_rank()));
                                               })))
    return status;
  if (int status =
          distributed::agree_on_setup(world, distributed::attempt([&] {
                                        layout = std::make_unique<distributed::MultigridLayout>(
                                            world, *session, problem, s, o.agglomerate, ranks,
                                            distributed::HaloWidths{o.halo, o.coarse_halo});
                                      })))
    return status;
  layout->set_overlap(o.overlap == "on");
  layout->set_colour_exchanges(o.colour_exchanges == "on");
  if (o.same_host_faces == "shared") // a collective: after every rank has its layout
    layout->share_host_memory();
  return distributed::agree_on_setup(world, distributed::attempt([&] {
                                       // Every rank stops after the same cycle: Ctrl-C on any
                                       // rank stops them all.
                                       SolverOptions agreed = s;
                                       agreed.stop = [&world, local = s.stop] {
                                         return world.sum(uint64_t{local && local() ? 1u : 0u}) > 0;
                                       };
                                       solver = std::make_unique<Solver>(*session, problem, agreed,
                                                                         *layout);
                                     }));
}

int solve_on_ranks(const SolveCommandOptions& o, const Problem& problem, const SolverOptions& s,
                   distributed::Communicator& world, runtime::Session& session,
                   distributed::MultigridLayout& layout, Solver& solver) {
  const auto& plan = layout.plan();
  const bool root = world.rank() == 0;
  if (root && !o.quiet) {
    std::cout
        << "problem " << o.problem << " " << problem.n << "^" << problem.dims << ", " << o.cycle
        << "(" << o.pre << "," << o.post << ") " << o.smoother << ", " << o.precision << ", on "
        << world.size() << " ranks ("
        << distributed::extents_text({plan.ranks.begin(), plan.ranks.end()}) << "), rank 0 on "
        << session.device().name << "\n"
        << "distributed levels 0-" << plan.grids.size() - 1 - plan.agglomerates()
        << (!plan.agglomerates() ? std::string(", no agglomeration")
            : plan.stage_ranks.empty()
                ? cat(", level ", plan.agglomerated, " and coarser on every rank (blocks below ",
                      layout.agglomerate_below(), " points)")
                : cat(", level ", plan.agglomerated, " and coarser gathered onto ",
                      distributed::extents_text({plan.stage_ranks.begin(), plan.stage_ranks.end()}),
                      " ranks (blocks below ", layout.agglomerate_below(), " points)"))
        << "\n";
  }
  if (const char* fail = std::getenv("TESSERA_FAIL_RANK"))
    if (std::atoi(fail) == world.rank())
      throw Error(cat("device error injected for testing (TESSERA_FAIL_RANK=", fail, ")"));
  // A rank that dies as a crash would (tests): mpirun must end the others, which wait for its
  // faces in their first exchange.
  if (const char* kill = std::getenv("TESSERA_KILL_RANK"))
    if (std::atoi(kill) == world.rank())
      std::raise(SIGKILL);
  SolveResult r = solve_recording(solver, o.timeline, world.rank(), world.size());
  uint64_t halo_bytes = world.sum(layout.halo_bytes());
  const uint64_t shared_faces = world.sum(uint64_t{layout.shared_faces()});
  // Per distributed level: the bytes all ranks sent, and how many exchanges (each rank takes
  // part in every one).
  std::vector<uint64_t> level_bytes, level_exchanges;
  std::vector<double> level_exchange_ms; // rank 0's wall time in them
  for (std::size_t l = 0; l < plan.grids.size(); ++l) {
    level_bytes.push_back(world.sum(layout.halo_bytes(l)));
    level_exchanges.push_back(layout.exchanges(l));
    level_exchange_ms.push_back(1e3 * layout.exchange_seconds(l));
  }
  if (!root)
    return r.converged ? 0 : r.stop_reason == "interrupted" ? kInterruptedStatus : 1;
  if (!o.quiet) {
    std::cout << "levels:";
    for (const auto& l : r.levels)
      std::cout << " " << l << ";";
    std::cout << "\nhalo bytes sent by all ranks: " << halo_bytes << " (per level:";
    for (std::size_t l = 0; l < level_bytes.size(); ++l)
      std::cout << (l ? ", " : " ") << level_bytes[l] << " in " << level_exchanges[l]
                << " exchanges";
    std::cout << "); " << shared_faces << " faces through memory shared on a host\n";
    print_time_outside_kernels(level_exchange_ms, 1e3 * layout.agglomerated_seconds(),
                               r.cycles.size(), plan.agglomerates());
  }
  print_result(r, std::cout, !o.quiet);
  if (!o.json.empty()) {
    auto j = to_json(r, o, session);
    j["ranks"] = plan.ranks;
    j["agglomerated_level"] = plan.agglomerates() ? static_cast<int64_t>(plan.agglomerated) : -1;
    j["stage_ranks"] = plan.stage_ranks; // where the agglomerated level goes; empty: every rank
    j["halo_bytes"] = halo_bytes;
    j["halo_bytes_by_level"] = level_bytes;
    j["shared_faces"] = shared_faces;
    j["halo_exchanges_by_level"] = level_exchanges;
    j["halo_exchange_ms_by_level"] = level_exchange_ms; // rank 0's wall time, all cycles
    j["agglomerated_ms"] = 1e3 * layout.agglomerated_seconds();
    write_file_atomically(o.json, j.dump(2) + "\n");
  }
  return solve_status(r, o, s, problem);
}

} // namespace

int distributed_solve_command(const SolveCommandOptions& o, const Problem& problem,
                              const SolverOptions& s) {
  distributed::MpiRuntime mpi;
  auto world = distributed::Communicator::world();
  std::vector<int> ranks;
  // The plan's checks run alike on every rank: one message, status 2
  // (distributed/SetupAgreement.h).
  if (int status = distributed::agree_on_setup(
          world, distributed::attempt([&] {
            if (!o.ranks.empty()) {
              auto extents = parse_numeric_size(o.ranks, problem.dims, "--ranks");
              ranks.assign(extents.begin(), extents.end());
              int product = 1;
              for (int r : ranks)
                product *= r;
              if (product != world.size())
                user_error(cat("--ranks ", o.ranks, " makes ", product, " ranks, the run has ",
                               world.size()));
            } else {
              ranks = world.balanced_dims(problem.dims);
            }
            // (the agglomeration's default depends on the devices, not chosen yet)
            distributed::plan_decomposition(world.size(), ranks, problem, s,
                                            std::max<int64_t>(o.agglomerate, 0),
                                            {o.halo, o.coarse_halo});
          })))
    return status;
  std::unique_ptr<runtime::Session> session;
  std::unique_ptr<distributed::MultigridLayout> layout;
  std::unique_ptr<Solver> solver;
  if (int status = set_up(o, problem, s, world, ranks, session, layout, solver))
    return status;
  try {
    return solve_on_ranks(o, problem, s, world, *session, *layout, *solver);
  } catch (const std::exception& e) {
    world.fail(e.what());
  }
}

} // namespace tessera::tools
