// The distributed sweep from the command line. Every rank parses the same options and plans the
// same decomposition, so a mistake in them is found by every rank before any message: the ranks
// agree on it, rank 0 prints it once and every rank exits with status 2
// (distributed/SetupAgreement.h). A failure after that (a device error on one rank) cannot be known
// by the others, which may be waiting for its halos: the failing rank prints "error: rank R of P:
// ..." and ends the whole run (MPI_Abort), never a hang.
#include "tools/SweepCommand.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "core/AtomicFile.h"
#include "core/Error.h"
#include "core/FilePlan.h"
#include "distributed/BestVariant.h"
#include "distributed/Mpi.h"
#include "distributed/SetupAgreement.h"
#include "distributed/Sweep.h"
#include "explore/Features.h"
#include "explore/TuningDatabase.h"
#include "explore/VariantNames.h"
#include "explore/Variants.h"
#include "primitives/TypeCheck.h"
#include "stencils/WithBoundary.h"
#include "tools/Commands.h"
#include "tools/HostMemory.h"
#include "tools/Interrupt.h"
#include "tools/ProgramSource.h"
#include "tools/Validators.h"

namespace tessera::tools {

CLI::App* add_sweep_command(CLI::App& app, SweepCommandOptions& o) {
  auto* sweep = app.add_subcommand(
      "sweep", "Sweep a stencil over a grid split over the MPI ranks (mpirun -np P tessera sweep)");
  sweep->add_option("stencil", o.stencil, "Catalog stencil (see `tessera list`)");
  sweep->add_option("--program", o.program, "The user's own one-input program (JSON)")
      ->check(not_empty("program.json"));
  sweep->add_option("--size", o.size, size_help())->check(not_empty("64x64"));
  sweep->add_option("--steps", o.steps, "Fused steps per halo exchange (halo = radius x K)")
      ->check(integer_in(1, 64));
  sweep->add_option("--iterations", o.iterations, "Halo exchanges (steps in all: K x I)")
      ->check(integer_in(1, 1000000));
  sweep->add_option("--boundary", o.boundary, boundary_help())->check(not_empty("fixed"));
  sweep->add_option("--ranks", o.ranks, "Ranks per dimension, e.g. 2x2 (default: MPI_Dims_create)")
      ->check(not_empty("2x2"));
  sweep->add_option("--overlap", o.overlap, "on (default): the interior runs during the exchange")
      ->check(CLI::IsMember({"on", "off"}));
  sweep
      ->add_option("--same-host-faces", o.same_host_faces,
                   "shared (default): halo faces between ranks of one host go through memory "
                   "both ranks map, copied by the devices; mpi: as MPI messages")
      ->check(CLI::IsMember({"shared", "mpi"}));
  sweep->add_option("--device", o.device,
                    "OpenCL device spec; the ranks of a host take its matches round robin");
  sweep->add_option("--json", o.json, "Write the summary and the checksum as JSON (rank 0)")
      ->check(not_empty("sweep.json"));
  sweep->add_option("--values", o.values, "Write the whole result grid as JSON (rank 0)")
      ->check(not_empty("values.json"));
  sweep->add_option("--seed", o.seed, "Seed of the initial grid (default 1)")
      ->check(integer_in(0, std::numeric_limits<uint32_t>::max()));
  sweep
      ->add_option("--variant", o.variant,
                   "Variant K of `tessera variants STENCIL --size SIZE`, or its name (depth 1; "
                   "0: the plain MapGlb lowering); each rank runs the variant with the same "
                   "rewrite steps at its extended block's size")
      ->check(not_empty("3"));
  sweep
      ->add_option("--local", o.local,
                   "Work-group size of the local step's launches, OpenCL's dimension 0 first "
                   "(e.g. 32x4x1; default: the explored best variant's, else automatic)")
      ->check(not_empty("32x4x1"));
  sweep
      ->add_option("--tuning-db", o.tuning_db,
                   "Tuning database in which each rank looks for the explored best variant of "
                   "its local step at its block's size (default: tuning.json in the cache "
                   "directory; off: the plain lowering)")
      ->check(not_empty("tuning.json"));
  sweep->add_flag("-q,--quiet", o.quiet, "Print only the checksum line");
  sweep->add_flag("-v,--verbose", o.verbose,
                  "Each rank prints its phases (device, kernels, initial values, periods) to "
                  "stderr as they begin, with the seconds since it started");
  return sweep;
}

namespace {

std::vector<int> parse_ranks(const std::string& text, int dims) {
  if (text.empty())
    return {};
  auto extents = parse_numeric_size(text, dims, "--ranks");
  return {extents.begin(), extents.end()};
}

distributed::SweepConfig plan(const SweepCommandOptions& o) {
  ProgramSource source = resolve_program(o.stencil, o.program, 1);
  distributed::SweepConfig c;
  c.name = source.info.name;
  c.build = source.info.build;
  if (!o.boundary.empty())
    c.build = [build = c.build, b = stencils::parse_boundary(o.boundary)](
                  const std::vector<ArithExpr>& e) { return stencils::with_boundary(build(e), b); };
  std::string size = o.size.empty() ? source.default_size : o.size;
  c.global = parse_numeric_size(size, source.info.dims, source.info.name);
  check_point_count(size, c.global);
  c.steps = o.steps;
  c.overlap = o.overlap == "on";
  c.shared_host_memory = o.same_host_faces == "shared";
  c.ranks = parse_ranks(o.ranks, source.info.dims);
  c.device = o.device;
  c.seed = o.seed;
  if (o.verbose)
    c.progress = [start = distributed::wall_seconds()](const std::string& phase) {
      // One write per line: the ranks' lines reach mpirun's terminal whole.
      std::ostringstream line;
      line << "[rank " << distributed::Communicator::world().rank() << " +" << std::fixed
           << std::setprecision(2) << distributed::wall_seconds() - start << " s] " << phase
           << "\n";
      std::cerr << line.str() << std::flush;
    };
  c.local = explore::parse_local_size(o.local);
  std::vector<ArithExpr> extents(c.global.begin(), c.global.end());
  SelectedVariant chosen;
  if (o.variant != "0")
    chosen = select_variant(c.build(extents), o.variant, 1, c.name);
  if (chosen.index != 0) {
    // Chosen here, on every rank alike, so that a wrong number or name is an option mistake;
    // each rank finds its counterpart when the sweep is planned (an agreed error where it has
    // none).
    const std::string signature = explore::variant_signature(chosen.variant.history);
    c.lower = [signature,
               variant = explore::variant_name(chosen.variant.history)](const Expr& step) {
      auto found = distributed::variant_with_signature(step, 1, signature);
      if (!found)
        user_error(cat("variant '", variant, "'",
                       ") has no counterpart for the extended block of rank ",
                       distributed::Communicator::world().rank(), ", a grid of type ",
                       input_types(step).at(0).to_string(),
                       " (its tiles do not divide it, say); choose another --variant or --ranks"));
      return *found;
    };
  }
  // The files before the work (docs/cli.md, "Outputs"): rank 0 writes the outputs.
  FilePlan files;
  files.input(o.program, "the --program file", "the program");
  c.tuning_database = plan_tuning_database(files, o.tuning_db);
  files.output(o.json, "--json", "the summary").output(o.values, "--values", "the values").check();
  return c;
}

std::string hex(uint64_t v) {
  char text[19];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

int run_sweep(const SweepCommandOptions& o, distributed::Communicator& world,
              distributed::DistributedSweep& sweep, InterruptGuard& guard) {
  sweep.start();
  guard.reclaim(); // PoCL's compiler installs its own handler when it first runs
  auto totals = sweep.run(o.iterations, &guard.flag());
  uint64_t checksum = sweep.checksum();
  auto values = o.values.empty() ? std::vector<double>{} : sweep.gather();
  const std::string& lowering = sweep.lowering();
  auto lowerings = world.gather(std::vector<unsigned char>(lowering.begin(), lowering.end()));
  const std::string device = sweep.device_description();
  auto devices = world.gather(std::vector<unsigned char>(device.begin(), device.end()));
  const double setup = world.max(sweep.setup_seconds()); // collective: before rank 0 goes on
  const double peak_memory = world.max(peak_resident_bytes());
  const uint64_t shared_faces = world.sum(uint64_t{sweep.shared_faces()});
  if (world.rank() != 0)
    return totals.interrupted ? kInterruptedStatus : 0;
  const auto& g = sweep.grid();
  double points = 1;
  for (auto e : g.global)
    points *= static_cast<double>(e);
  int64_t steps = static_cast<int64_t>(o.steps) * totals.periods;
  double gcells = points * static_cast<double>(steps) / totals.seconds / 1e9;
  std::vector<int64_t> ranks(g.ranks.begin(), g.ranks.end());
  if (!o.quiet) {
    std::cout << "sweep    " << sweep.grid().global.size() << "-D grid "
              << distributed::extents_text(g.global) << ", " << o.steps
              << " fused steps per exchange x " << totals.periods << " = " << steps << " steps"
              << (totals.interrupted ? cat(" (interrupted: ", o.iterations, " asked)") : "")
              << "\n";
    std::cout << "ranks    " << world.size() << " (" << distributed::extents_text(ranks)
              << "), halo " << g.halo() << " (radius " << g.radius << "), "
              << (g.periodic ? "periodic, " : "") << "overlap " << o.overlap << "\n";
    for (std::size_t r = 0; r < devices.size(); ++r)
      std::cout << "device   rank " << r << ": "
                << std::string(devices[r].begin(), devices[r].end()) << "\n";
    for (std::size_t r = 0; r < lowerings.size(); ++r)
      std::cout << "kernel   rank " << r << ": "
                << std::string(lowerings[r].begin(), lowerings[r].end()) << "\n";
    std::cout << "setup    " << setup
              << " s on the slowest rank (device, kernels, initial values, one warm-up period)\n";
    std::cout << "time     " << totals.seconds << " s (halo exchange " << totals.exchange_seconds
              << " s on the slowest rank), " << gcells << " GCells/s\n";
    std::cout << "halo     " << totals.halo_bytes << " bytes sent by all ranks; " << shared_faces
              << " faces through memory shared on a host\n";
    std::cout << "memory   " << static_cast<int64_t>(peak_memory / 1e6)
              << " MB of host memory at most on one rank (its peak resident set)\n";
  }
  std::cout << "checksum " << hex(checksum) << "\n";
  if (!o.json.empty()) {
    nlohmann::json j{{"format", "tessera-sweep"},
                     {"version", 1},
                     {"stencil", sweep.grid().global.size() ? o.stencil : ""},
                     {"program", o.program},
                     {"size", g.global},
                     {"ranks", ranks},
                     {"steps", o.steps},
                     {"iterations", totals.periods},
                     {"iterations_asked", o.iterations},
                     {"interrupted", totals.interrupted},
                     {"boundary", o.boundary},
                     {"overlap", o.overlap == "on"},
                     {"setup_seconds", setup},
                     {"seconds", totals.seconds},
                     {"exchange_seconds", totals.exchange_seconds},
                     {"halo_bytes", totals.halo_bytes},
                     {"shared_faces", shared_faces},
                     {"peak_host_bytes", static_cast<int64_t>(peak_memory)},
                     {"gcells_per_second", gcells},
                     {"checksum", hex(checksum)}};
    for (const auto& d : devices)
      j["devices"].push_back(std::string(d.begin(), d.end()));
    write_file_atomically(o.json, j.dump(2) + "\n");
  }
  if (!o.values.empty()) {
    nlohmann::json j{
        {"format", "tessera-sweep-values"}, {"version", 1}, {"size", g.global}, {"values", values}};
    write_file_atomically(o.values, j.dump() + "\n");
  }
  if (totals.interrupted)
    return interrupted_after(cat(totals.periods, " of ", o.iterations, " exchange periods"),
                             o.json);
  return 0;
}

} // namespace

int sweep_command(const SweepCommandOptions& o) {
  InterruptGuard guard; // first of all, as explore's: no moment of the run may lose a Ctrl-C
  distributed::MpiRuntime mpi;
  auto world = distributed::Communicator::world();
  // The set-up's checks run alike on every rank: one message, status 2
  // (distributed/SetupAgreement.h).
  distributed::SweepConfig config;
  if (int status =
          distributed::agree_on_setup(world, distributed::attempt([&] { config = plan(o); })))
    return status;
  std::optional<distributed::DistributedSweep> sweep;
  if (int status = distributed::agree_on_setup(
          world, distributed::attempt([&] { sweep.emplace(world, config); })))
    return status;
  // Each rank's device, buffers and kernels: a rank that fails (a block its device cannot hold,
  // a kernel its driver refuses) is named once, and every rank ends without MPI_Abort.
  if (int status =
          distributed::agree_on_setup(world, distributed::attempt([&] { sweep->prepare(); })))
    return status;
  try {
    return run_sweep(o, world, *sweep, guard);
  } catch (const std::exception& e) {
    world.fail(e.what());
  }
}

} // namespace tessera::tools
