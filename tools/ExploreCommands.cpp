// tessera explore / report / plot.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <memory>
#include <optional>
#include <unistd.h>

#include "compile/DeviceLimits.h"
#include "core/Error.h"
#include "core/FileLock.h"
#include "core/FilePlan.h"
#include "core/Format.h"
#include "core/OutputPath.h"
#include "core/Printer.h"
#include "explore/ComputeCeiling.h"
#include "explore/Evaluations.h"
#include "explore/Explorer.h"
#include "explore/Plot.h"
#include "explore/ProgressBar.h"
#include "explore/Report.h"
#include "explore/TuningDatabase.h"
#include "runtime/Device.h"
#include "runtime/Session.h"
#include "stencils/Catalog.h"
#include "tools/Budget.h"
#include "tools/Commands.h"
#include "tools/Interrupt.h"
#include "tools/Problem.h"
#include "tools/ProgramSource.h"

namespace tessera::tools {

namespace {

using Clock = std::chrono::steady_clock;

// The share of the budget the enumeration of variants may take; the rest is for measuring.
// (Kernels are generated during the search, not by the enumeration: its share only enumerates
// and lowers, and every second of it is a second less of measuring.)
constexpr double kEnumerationShare = 0.2;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Ctrl-C before the baseline was measured: nothing new to write, and the exit status says so.
int interrupted_early(const ExploreCommandOptions& x) {
  std::cerr << "interrupted before any point was measured: nothing was written"
            << (x.json.empty()                    ? ""
                : std::filesystem::exists(x.json) ? cat(" (", x.json, " was left as it was)")
                                                  : std::string(" (no report)"))
            << "\n";
  return kInterruptedStatus;
}

// The options' files, checked before any work (core/FilePlan.h): every output may be written,
// none replaces another or a file the run reads (the --program, the tuning database), and the
// report is locked for this run.
struct RunFiles {
  std::filesystem::path tuning_database; // empty: none
  std::unique_ptr<FileLock> report_lock;
};

RunFiles check_files(const ExploreCommandOptions& x) {
  FilePlan files;
  files.input(x.program, "the --program file", "the program");
  RunFiles run{plan_tuning_database(files, x.tuning_db), nullptr};
  files.output(x.json, "--json", "the report").output(x.plot, "--plot", "the picture").check();
  if (!x.plot.empty() && explore::find_gnuplot().empty())
    user_error("--plot needs gnuplot, which was not found: install it (apt-get install "
               "gnuplot-nox) or leave out --plot");
  if (!x.json.empty())
    if (OutputTarget report = resolve_output(x.json, "--json"); report.kind == OutputKind::Replace)
      run.report_lock = std::make_unique<FileLock>(report.path, "the report");
  return run;
}

// Progress of the enumeration: redrawn in place on a terminal, else a line every 2 s after the
// first second (none with -q).
class EnumerationDisplay {
public:
  EnumerationDisplay(explore::ProgressBar& bar, bool bar_enabled, bool quiet)
      : bar_(bar), bar_enabled_(bar_enabled), quiet_(quiet) {}
  void show(const rewrite::EnumerationProgress& p, double budget_share) {
    auto now = Clock::now();
    double since = std::chrono::duration<double>(now - last_).count();
    if (bar_enabled_ ? since < 0.2 : (quiet_ || p.seconds < 1 || since < 2))
      return;
    last_ = now;
    std::string what = p.total ? cat(p.phase, " ", p.done, "/", p.total)
                               : cat(p.phase, ", ", p.done, " variants so far");
    std::string line = cat("enumerating variants: ", what, "  ", fixed(p.seconds, 1), "/",
                           fixed(budget_share, 1), " s");
    if (bar_enabled_)
      bar_.show_text(line);
    else
      std::cerr << line << "\n";
  }

private:
  explore::ProgressBar& bar_;
  bool bar_enabled_, quiet_;
  Clock::time_point last_{};
};

void print_result(const explore::Report& report, double elapsed, double budget_s) {
  const explore::PointResult* best = report.best ? report.find(*report.best) : nullptr;
  const explore::PointResult* base = report.baseline ? report.find(*report.baseline) : nullptr;
  if (best && base && report.speedup > 0)
    std::cout << "result: best " << fixed(best->median_ms, 3) << " ms, " << fixed(best->gb_per_s, 2)
              << " GB/s (" << fixed(100 * best->fraction_of_copy, 1) << "% "
              << report.fraction_label() << " " << fixed(report.copy_gb_per_s, 2)
              << " GB/s); plain MapGlb lowering " << fixed(base->median_ms, 3)
              << " ms; best / baseline = " << fixed(report.speedup, 2) << "x"
              << (ok_points(report) == 1 ? " (only the baseline was measured)" : "")
              << (report.interrupted ? " (interrupted: not confirmed)" : "") << "\n";
  else
    std::cout << "result: none: no point was measured successfully"
              << (base ? cat(" (the baseline: ", explore::to_string(base->status), ": ",
                             first_line(base->error), ")")
                       : std::string())
              << "\n";
  std::cout << explore::roofline_summary(report) << "\n";
  if (!report.timing_regime.empty())
    std::cout << "timing: " << report.timing_regime << "\n";
  if (std::string compute = explore::compute_summary(report); !compute.empty())
    std::cout << compute << "\n";
  std::cout << "finished in " << fixed(elapsed, 1) << " s of the " << cat(budget_s) << " s budget"
            << (elapsed <= budget_s ? "" : " (OVER BUDGET)")
            << (report.interrupted ? " (interrupted: continue with --resume)" : "") << "\n";
}

// The share of an `explore --steps K` budget spent on the single sweep.
constexpr double kSingleSweepShare = 0.3;

// The single-step program explored quietly with a share of the budget (the same device, start
// and strategy), for the comparison with the fused steps.
explore::Report explore_single_sweep(const ExploreCommandOptions& x,
                                     const std::vector<int64_t>& extents, runtime::Session& session,
                                     const explore::ExploreOptions& all,
                                     const rewrite::EnumerateOptions& control) {
  auto source = resolve_program(x.stencil, x.program, 1, x.boundary);
  explore::Problem problem = make_problem(source, extents, x.depth, control);
  explore::ExploreOptions options = all;
  options.budget_s = kSingleSweepShare * x.budget_s;
  options.resume.reset();
  options.on_checkpoint = nullptr;
  options.on_progress = nullptr;
  if (!x.quiet)
    std::cout << "single sweep: " << problem.enumeration << ", " << fixed(options.budget_s, 1)
              << " s of the budget\n"
              << std::flush;
  explore::Report report = explore::explore(session, problem, options);
  if (!x.quiet)
    std::cout << explore::format_report(report, 3);
  return report;
}

} // namespace

int explore_command(const ExploreCommandOptions& x) {
  if (!x.devices.empty())
    return explore_devices_command(x);
  InterruptGuard guard; // first of all: no moment of the run may lose a Ctrl-C
  const auto start = Clock::now();
  auto source = resolve_program(x.stencil, x.program, x.steps, x.boundary);
  const auto& info = source.info;
  auto extents = parse_numeric_size(x.size, info.dims, info.name);
  explore::Strategy strategy = explore::parse_strategy(x.strategy);
  if (!(x.budget_s > 0))
    user_error(cat("--budget must be a positive number of seconds, got ", x.budget_s));
  if (x.resume && x.json.empty())
    user_error("--resume needs --json FILE: the report to continue");
  RunFiles files = check_files(x);

  explore::ExploreOptions options;
  options.budget_s = x.budget_s;
  options.start = start;
  options.strategy = strategy;
  options.repeats = x.repeats;
  options.seed = x.seed;
  options.depth = x.depth;
  options.tuning_database = files.tuning_database;
  explore::read_tuned_points(options.tuning_database, ""); // a bad file fails before any work
  if (x.resume) {
    if (std::filesystem::exists(x.json)) {
      options.resume = explore::read_report(x.json);
      explore::check_resumable(
          *options.resume, info.name, extents, options,
          print(info.build(std::vector<ArithExpr>(extents.begin(), extents.end()))));
    } else {
      std::cerr << "note: " << x.json << " does not exist yet: starting a new exploration\n";
    }
  }

  // The device first: an unknown device should fail before the enumeration's work.
  runtime::Session session = runtime::Session::from_env(x.device);
  guard.reclaim();
  if (guard.interrupted())
    return interrupted_early(x);

  bool bar_enabled = x.progress || ::isatty(STDERR_FILENO);
  explore::ProgressBar bar(std::cerr, bar_enabled);
  // The enumeration counts in the budget and may take a share of it.
  rewrite::EnumerateOptions control;
  double enumeration_s = std::max(0.1, kEnumerationShare * x.budget_s);
  control.deadline_seconds = enumeration_s;
  // The placements' side conditions: this device's constant memory and images.
  explore::apply_device_limits(control, session.device());
  EnumerationDisplay display(bar, bar_enabled, x.quiet);
  control.cancel = &guard.flag();
  control.on_progress = [&](const rewrite::EnumerationProgress& p) {
    display.show(p, enumeration_s);
    return true;
  };
  // --steps K: fusing all K steps is one of the candidates.
  if (x.steps >= 2 && std::find(control.temporal_steps.begin(), control.temporal_steps.end(),
                                x.steps) == control.temporal_steps.end())
    control.temporal_steps.push_back(x.steps);
  explore::Problem problem = make_problem(source, extents, x.depth, control);
  guard.reclaim();
  if (guard.interrupted())
    return interrupted_early(x);

  options.stop = &guard.flag();
  options.on_progress = [&](const explore::Progress& p) {
    guard.reclaim(); // PoCL's compiler installs its own handler when it first runs
    bar.update(p);
  };
  if (!x.json.empty())
    options.on_checkpoint = [&](const explore::Report& r) { explore::write_report(r, x.json); };

  if (!x.quiet) {
    bar.finish();
    std::cout << "explore " << info.name << " " << x.size << " on " << session.device().name << " ("
              << session.device().platform_name << "), budget " << x.budget_s << " s, "
              << x.strategy << "\n";
    std::cout << "variants: " << problem.enumeration << "\n" << std::flush;
  }
  // --steps K: the single sweep first, with a share of the budget, so that the fused variants
  // are compared with K sweeps of the best single sweep of the same run.
  std::optional<explore::Report> single;
  if (x.steps >= 2 && !guard.interrupted()) {
    single = explore_single_sweep(x, extents, session, options, control);
    guard.reclaim();
  }
  // A roofline measured in this run (once per device) is outside the budget.
  double roofline_s = single ? single->roofline_measure_s : 0;
  options.start +=
      std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(roofline_s));
  explore::Report report = explore::explore(session, problem, options);
  bar.finish();
  if (single) {
    report.steps = explore::compare_steps(x.steps, *single, report);
    if (!x.json.empty())
      explore::write_report(report, x.json);
  }
  if (report.interrupted && !report.baseline)
    return interrupted_early(x);
  double elapsed = seconds_since(start) - roofline_s - report.roofline_measure_s;
  if (!x.quiet)
    std::cout << explore::format_report(report, 5) << explore::evaluation_summary(report, problem);
  print_result(report, elapsed, x.budget_s);
  if (std::string advice = budget_advice(report, problem, enumeration_s); !advice.empty())
    std::cout << advice;
  if (!x.json.empty())
    std::cout << "report: " << x.json << "\n";
  if (!x.plot.empty() && ok_points(report) > 0) {
    explore::plot_report(report, x.plot);
    std::cout << "plot: " << x.plot << "\n";
  }
  if (report.interrupted)
    return kInterruptedStatus;
  return ok_points(report) > 0 ? 0 : 1;
}

int report_command(const std::string& path) {
  auto report = explore::read_report(path);
  std::cout << explore::format_report(report);
  return 0;
}

int plot_command(const std::string& path, const std::string& svg) {
  FilePlan().input(path, "the report", "the report").output(svg, "-o", "the picture").check();
  auto report = explore::read_report(path);
  explore::plot_report(report, svg);
  std::cout << "wrote " << svg << "\n";
  return 0;
}

} // namespace tessera::tools
