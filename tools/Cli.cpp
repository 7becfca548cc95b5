#include "tools/Cli.h"

#include <CLI/CLI.hpp>
#include <iostream>
#include <limits>
#include <new>

#include "core/Error.h"
#include "distributed/SetupAgreement.h"
#include "tools/Commands.h"
#include "tools/ProgramSource.h"
#include "tools/SolveCommand.h"
#include "tools/Validators.h"
#ifdef TESSERA_WITH_MPI
#include "tools/SweepCommand.h"
#endif

namespace tessera::tools {

namespace {

// --program FILE.json, --steps K and --boundary B of a command (tools/ProgramSource.h).
void add_program_options(CLI::App* command, std::string& program_file, int& steps,
                         std::string& boundary) {
  command
      ->add_option("--program", program_file,
                   "The user's own program: a JSON file written by save_expr_file (its first "
                   "input is the grid; --size binds its size variables)")
      ->check(not_empty("program.json"));
  command
      ->add_option("--steps", steps,
                   "Time steps: the program applied K times in a row, fused by temporal tiling "
                   "among the variants (default 1)")
      ->check(integer_in(1, 64));
  command->add_option("--boundary", boundary, boundary_help())->check(not_empty("fixed"));
}

// The message of a command that failed and its exit status. Under mpirun, the distributed
// commands' ranks agree on it, so that it is printed once (distributed/SetupAgreement.h).
int failed(int argc, const char* const* argv, const distributed::SetupOutcome& failure) {
#ifdef TESSERA_WITH_MPI
  const std::string command = argc > 1 ? argv[1] : "";
  if ((command == "sweep" || command == "solve") && launched_by_mpirun())
    return distributed::agree_on_early_failure(failure);
#else
  (void)argc;
  (void)argv;
#endif
  std::cerr << (failure.status == 3 ? "internal error: " : "error: ") << failure.message << "\n";
  return failure.status;
}

// The commands on one stencil: list, devices, show, variants, emit, run.
struct StencilCommands {
  CLI::App *list, *devices, *show, *variants, *emit, *run;
};

StencilCommands add_stencil_commands(CLI::App& app, CommonOptions& o) {
  auto* list = app.add_subcommand("list", "List the stencils of the catalog");
  auto* devices = app.add_subcommand("devices", "List the OpenCL devices");
  auto* show = app.add_subcommand("show", "Print a stencil in Lift notation with its type");
  auto* variants = app.add_subcommand(
      "variants", "Enumerate a stencil's rewrite variants (tilings, mappings) in Lift notation");
  auto* emit = app.add_subcommand("emit", "Generate the OpenCL kernel of a stencil's variant");
  auto* run = app.add_subcommand(
      "run", "Evaluate a stencil with the interpreter, run its kernel on a device and compare");
  for (auto* cmd : {show, variants, emit, run}) {
    cmd->add_option("stencil", o.stencil, "Stencil name (see `tessera list`), or --program");
    cmd->add_option("--size", o.size, size_help())->check(not_empty("64x64"));
    add_program_options(cmd, o.program, o.steps, o.boundary);
  }
  for (auto* cmd : {variants, emit, run})
    cmd->add_option("--depth", o.depth, "Rewrite depth of the enumeration (default 1)")
        ->check(integer_in(0, 8));
  for (auto* cmd : {emit, run})
    cmd->add_option("--variant", o.variant,
                    "The variant: its number or, the same at every size where it exists, its "
                    "name, e.g. 'tile-nd at [1] {dims=2, tile=16}; mapping: coarsened' (see "
                    "`tessera variants`; 0 = plain MapGlb lowering)")
        ->check(not_empty("3"));
  emit->add_option("--local", o.local, "Work-group size, e.g. 32x8 (for automatic ones)")
      ->check(not_empty("32x8"));
  emit->add_option("-o,--output", o.output, "Write the kernel to this file (default: stdout)")
      ->check(not_empty("kernel.cl"));
  emit->add_option("--json", o.launch_json,
                   "Write the launch description (sizes, arguments) to this JSON file")
      ->check(not_empty("launch.json"));
  run->add_option("--device", o.device, "OpenCL device: name substring or index (default: PoCL)");
  return {list, devices, show, variants, emit, run};
}

CLI::App* add_explore_command(CLI::App& app, ExploreCommandOptions& x) {
  auto* explore = app.add_subcommand(
      "explore", "Build, check and time a stencil's variants on a device and keep the fastest");
  explore->add_option("stencil", x.stencil, "Stencil name (see `tessera list`), or --program");
  add_program_options(explore, x.program, x.steps, x.boundary);
  explore->add_option("--size", x.size, "Grid extents, e.g. 4096x4096")
      ->required()
      ->check(not_empty("4096x4096"));
  explore->add_option(
      "--device", x.device,
      "OpenCL device: name substring or index (default: TESSERA_DEVICE, else PoCL)");
  explore
      ->add_option("--devices", x.devices,
                   "Spread the variants over several devices: all, or a spec matching several "
                   "(gpu, NVIDIA); the report merges them by device")
      ->check(not_empty("all"));
  explore
      ->add_option("--budget", x.budget_s,
                   "Wall-clock budget in seconds, enumeration and building included (default 60)")
      ->check(positive_seconds());
  explore
      ->add_option("--json", x.json,
                   "Write the report to this file (atomically, after every point; locked while "
                   "the run owns it)")
      ->check(not_empty("report.json"));
  explore->add_option("--plot", x.plot, "Also draw the report as an SVG picture (gnuplot)")
      ->check(not_empty("report.svg"));
  explore->add_option("--strategy", x.strategy,
                      "exhaustive, random, halving or bandit (default halving)");
  explore
      ->add_option("--tuning-db", x.tuning_db,
                   "Tuning database to start from and to record every point in (default: "
                   "tuning.json in the cache directory, shared with `tessera solve`; off: none)")
      ->check(not_empty("tuning.json"));
  explore->add_option("--depth", x.depth, "Rewrite depth of the enumeration (default 1)")
      ->check(integer_in(0, 8));
  explore->add_option("--repeats", x.repeats, "Timed launches per measurement (default 5)")
      ->check(integer_in(1, 1000));
  explore->add_option("--seed", x.seed, "Seed of the random inputs and orders (default 1)")
      ->check(integer_in(0, std::numeric_limits<uint32_t>::max()));
  explore->add_flag("--resume", x.resume,
                    "Continue the report given by --json: skip measured points");
  explore->add_flag("--progress", x.progress,
                    "Show the progress bar even when stderr is not a terminal");
  explore->add_flag("-q,--quiet", x.quiet, "Print only the result lines");
  return explore;
}

// A word that is not a command (CLI11 would only say that a command is required): says so
// and which are.
bool unknown_command(CLI::App& app, int argc, const char* const* argv) {
  if (argc > 1 && argv[1][0] != '-') {
    std::string word = argv[1], names;
    bool known = false;
    for (const auto* cmd : app.get_subcommands([](const CLI::App*) { return true; })) {
      known |= cmd->get_name() == word;
      names += (names.empty() ? "" : ", ") + cmd->get_name();
    }
    if (!known) {
      std::cerr << "error: unknown command '" << word << "' (the commands are " << names
                << "; run with --help for the usage)\n";
      return true;
    }
  }
  return false;
}

// The format of std::cout and std::cerr as a command found them: a command that prints in
// scientific notation must not change how the next command of the same process (the tests run
// the command line in-process) prints its numbers.
class StreamFormatGuard {
public:
  StreamFormatGuard() : out_(nullptr), err_(nullptr) {
    out_.copyfmt(std::cout);
    err_.copyfmt(std::cerr);
  }
  ~StreamFormatGuard() {
    std::cout.copyfmt(out_);
    std::cerr.copyfmt(err_);
  }
  StreamFormatGuard(const StreamFormatGuard&) = delete;
  StreamFormatGuard& operator=(const StreamFormatGuard&) = delete;

private:
  std::ios out_, err_;
};

int run_commands(int argc, const char* const* argv);

} // namespace

int run_cli(int argc, const char* const* argv) {
  StreamFormatGuard guard;
  return run_commands(argc, argv);
}

namespace {

int run_commands(int argc, const char* const* argv) {
  CLI::App app{"tessera: functional stencil programs, rewritten, compiled to OpenCL and explored"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("tessera ") + TESSERA_VERSION);
  CommonOptions o;
  ExploreCommandOptions x;
  std::string report_file, svg_file;

  auto [list, devices, show, variants, emit, run] = add_stencil_commands(app, o);
  auto* explore = add_explore_command(app, x);

  auto* report = app.add_subcommand("report", "Summarise an exploration report");
  report->add_option("file", report_file, "Report written by `tessera explore --json`")->required();
  auto* plot = app.add_subcommand(
      "plot",
      "Draw an exploration report: variants' bandwidth against the copy-bandwidth roofline");
  plot->add_option("file", report_file, "Report written by `tessera explore --json`")->required();
  plot->add_option("-o,--output", svg_file, "SVG file to write")
      ->required()
      ->check(not_empty("report.svg"));

  SolveCommandOptions solve_options;
  auto* solve = add_solve_command(app, solve_options);
#ifdef TESSERA_WITH_MPI
  SweepCommandOptions sweep_options;
  auto* sweep = add_sweep_command(app, sweep_options);
#endif

  if (unknown_command(app, argc, argv))
    return 2;
  try {
    app.parse(argc, argv);
    if (list->parsed())
      return list_command();
    if (devices->parsed())
      return devices_command();
    if (show->parsed())
      return show_command(o);
    if (variants->parsed())
      return variants_command(o);
    if (emit->parsed())
      return emit_command(o);
    if (run->parsed())
      return run_command(o);
    if (explore->parsed())
      return explore_command(x);
    if (report->parsed())
      return report_command(report_file);
    if (plot->parsed())
      return plot_command(report_file, svg_file);
    if (solve->parsed())
      return solve_command(solve_options);
#ifdef TESSERA_WITH_MPI
    if (sweep->parsed())
      return sweep_command(sweep_options);
#endif
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return failed(argc, argv, {cat(e.what(), "\n(run with --help for the usage)"), 2});
  } catch (const tessera::Error& e) {
    return failed(argc, argv, {e.what(), 2});
  } catch (const std::bad_alloc&) {
    return failed(argc, argv,
                  {"out of host memory: the problem is too large for this machine (try a "
                   "smaller --size)",
                   2});
  } catch (const std::exception& e) {
    return failed(argc, argv, {e.what(), 3});
  }
  return 0;
}

} // namespace

} // namespace tessera::tools
